import Foundation
import OddsModel

/// Which price move each `price` line of a stream reports: the selection's last change, given once,
/// on the first price line at or after it.
///
/// A price line usually makes its own move. But TickOdds sends, with each changed selection, the whole
/// refreshed event, which already holds every new price of that tick: the event lands first, so the
/// price lines that follow find their price already in place. Their moves were made by the event;
/// they are still theirs to report.
public struct PriceLineMoves: Sendable {
    private var reported: [EventKey: [SelectionKey: Date]] = [:]

    public init() {}

    /// The move `message` reports, if it is a price line; call after `store.apply(message)`.
    public mutating func move(for message: FeedMessage, in store: LiveStore) -> PriceMove? {
        switch message.update {
        case .price(let line):
            let event = EventKey(provider: message.provider, id: line.eventID)
            let selection = SelectionKey(line)
            guard let move = store.events[event]?.moves[selection], reported[event]?[selection] != move.changedAt else {
                return nil
            }
            reported[event, default: [:]][selection] = move.changedAt
            return move
        case .remove(let id):
            reported[EventKey(provider: message.provider, id: id)] = nil
        case .snapshot:
            prune(store)
        default:
            break
        }
        return nil
    }

    /// Forgets the events and selections `store` no longer holds.
    public mutating func prune(_ store: LiveStore) {
        for (key, selections) in reported {
            guard let state = store.events[key] else { reported[key] = nil; continue }
            if selections.keys.contains(where: { state.moves[$0] == nil }) {
                reported[key] = selections.filter { state.moves[$0.key] != nil }
            }
        }
    }

    /// How many selections' moves it remembers.
    public var count: Int { reported.values.reduce(0) { $0 + $1.count } }
}
