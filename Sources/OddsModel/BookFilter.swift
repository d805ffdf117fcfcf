/// `--book B` (repeatable): keeps only the prices of the named books. Matching ignores case.
/// An empty filter keeps everything.
public struct BookFilter: Hashable, Sendable {
    public let books: Set<String>

    public init(_ books: [String]) {
        self.books = Set(books.map { $0.lowercased() }.filter { !$0.isEmpty })
    }

    public var isEmpty: Bool { books.isEmpty }

    /// True for a book the filter keeps. A market without a book is kept only by an empty filter.
    public func allows(_ book: String?) -> Bool {
        books.isEmpty || book.map { books.contains($0.lowercased()) } ?? false
    }

    /// The event with only the kept books' markets.
    public func apply(_ event: Event) -> Event {
        guard !books.isEmpty else { return event }
        var e = event
        e.markets.removeAll { !allows($0.book) }
        return e
    }

    /// The update with only the kept books' prices; nil when nothing of it is left.
    public func apply(_ update: FeedUpdate) -> FeedUpdate? {
        guard !books.isEmpty else { return update }
        switch update {
        case .snapshot(let events): return .snapshot(events.map(apply))
        case .upsert(let e): return .upsert(apply(e))
        case .price(let p): return allows(p.book) ? update : nil
        case .bookUpsert(let e, let b): return allows(b) ? .bookUpsert(apply(e), book: b) : nil
        case .bookViews(let e, let books):
            let kept = books.filter(allows)
            guard let first = kept.first else { return nil }
            return kept.count == 1 ? .bookUpsert(apply(e), book: first) : .bookViews(apply(e), books: kept)
        case .clear(let scope): return scope.book.map(allows) == false ? nil : update
        default: return update
        }
    }

    /// The message with only the kept books' prices; nil when nothing of it is left.
    /// Taken consuming and given back as it is when the filter is empty: no copy of its update.
    public func apply(_ message: consuming FeedMessage) -> FeedMessage? {
        guard !books.isEmpty else { return message }
        guard let update = apply(message.update) else { return nil }
        message.update = update
        return message
    }
}
