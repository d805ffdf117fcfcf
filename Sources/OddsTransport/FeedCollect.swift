import Foundation
import NIOConcurrencyHelpers
import OddsModel

extension FeedRunner {
    /// Runs a feed for a one-shot answer (a provider without REST answers from its stream): each
    /// message is folded into `state` as it arrives, and every `poll` seconds `done` is asked whether
    /// the answer is complete. Returns the state when `done` says so or the feed ends, and throws the
    /// error that stopped the feed (or `failed` gives the answer despite it); once `timeout` has passed,
    /// `timedOut` gives the answer or throws. The feed is closed on return.
    public static func collect<State: Sendable>(_ adapters: [any FeedAdapter], transport: Transport, initial: State,
                                                poll: TimeInterval, timeout: TimeInterval,
                                                fold: @escaping @Sendable (inout State, FeedMessage) -> Void,
                                                done: (State) -> Bool,
                                                timedOut: (State) throws -> State,
                                                failed: (State, Error) throws -> State = { throw $1 }) async throws -> State {
        let stream = run(adapters, transport: transport, stats: FeedStats())
        let box = NIOLockedValueBox((state: initial, failure: Error?.none, ended: false))
        let consumer = Task {
            do {
                for try await message in stream { box.withLockedValue { fold(&$0.state, message) } }
                box.withLockedValue { $0.ended = true }
            } catch {
                box.withLockedValue { $0.failure = error; $0.ended = true }
            }
        }
        defer { consumer.cancel() }
        let start = Date()
        while true {
            try await Task.sleep(nanoseconds: UInt64(max(0.001, poll) * 1_000_000_000))
            let (state, failure, ended) = box.withLockedValue { ($0.state, $0.failure, $0.ended) }
            if let failure { return try failed(state, failure) }
            if ended || done(state) { return state }
            if Date().timeIntervalSince(start) > timeout { return try timedOut(state) }
        }
    }
}
