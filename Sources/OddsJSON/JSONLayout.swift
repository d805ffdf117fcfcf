/// A JSON value as last read, its bytes cut into the leaf members a decoder reads, each with what
/// the decoder calls it (`Kind`). A feed that resends a whole value on every change alters a few
/// members of it; the next version is compared with these bytes eight at a time and only the
/// members whose values differ are read again (`changes`). Everything else is the same bytes at the
/// same nesting, so it is valid and means what it meant. A difference anywhere but inside a
/// member's value (a member added, removed or renamed, other spacing) is no change of values: the
/// decoder reads the whole value again and lays it out anew.
///
/// Inlinable: a decoder in another module calls it for every message.
public struct JSONLayout<Kind> {
    /// One leaf member: from its key's quote to the end of its value, offsets within the value's bytes.
    public struct Member {
        public var start: Int
        /// Where the member's value starts (after the colon and any spaces).
        public var valueStart: Int
        public var end: Int
        /// The nesting inside the member's object.
        public var nesting: Int
        public var kind: Kind

        @inlinable
        public init(start: Int, valueStart: Int, end: Int, nesting: Int, kind: Kind) {
            self.start = start; self.valueStart = valueStart; self.end = end; self.nesting = nesting; self.kind = kind
        }
    }

    /// A member whose value changed, and its new length (key to end of value).
    public struct Change {
        public var member: Int
        public var length: Int

        @inlinable
        public init(member: Int, length: Int) { self.member = member; self.length = length }
    }

    /// The value's bytes.
    @usableFromInline var bytes: [UInt8]
    /// The nesting at which the value starts.
    public let nesting: Int
    @usableFromInline var _members: [Member]
    public var members: [Member] { _members }

    /// The layout of the value in `bytes` read at `nesting`, with its members (offsets from the
    /// value's first byte, in order, none inside another).
    @inlinable
    public init(_ bytes: Slice<UnsafeBufferPointer<UInt8>>, nesting: Int, members: [Member]) {
        self.bytes = Array(UnsafeBufferPointer(rebasing: bytes))
        self.nesting = nesting
        _members = members
    }

    /// The members whose values differ in the value at the scanner's position, each read by `read`
    /// (given the member and a scanner at its value, which it must move past the value), and where
    /// the value stands; nil when it differs other than inside member values. Throws what `read`
    /// throws (a changed value that is not JSON).
    @inlinable
    public func changes(_ scanner: JSONScanner, read: (Int, inout JSONScanner) throws -> Void) throws -> (changes: [Change], range: Range<Int>)? {
        var probe = scanner
        guard probe.peek() != nil, probe.nesting == nesting else { return nil }
        var changes: [Change] = []
        let start = probe.index
        var newAt = start, oldAt = 0, m = 0
        let members = _members
        let found: Bool = try bytes.withUnsafeBufferPointer { old in
            while true {
                let same = probe.sameBytes(from: newAt, as: old, from: oldAt)
                if oldAt + same == old.count { newAt += same; return true }
                let at = oldAt + same
                while m < members.count, members[m].end < at { m += 1 }
                // A difference before the next member's value, or past the last: not a changed value.
                guard m < members.count, members[m].valueStart <= at else { return false }
                var s = JSONScanner(probe.bytes, resumingAt: newAt + (members[m].valueStart - oldAt), nesting: members[m].nesting)
                try read(m, &s)
                changes.append(Change(member: m, length: s.index - (newAt + (members[m].start - oldAt))))
                newAt = s.index
                oldAt = members[m].end
                m += 1
            }
        }
        return found ? (changes, start..<newAt) : nil
    }

    /// The version just read (`value`, whose changes were `changes`) is the one to compare the next
    /// with. Most changes keep their length (a price, a clock): then only the changed members'
    /// bytes are written and nothing moves; otherwise the members after a change move and the
    /// bytes are copied whole.
    @inlinable
    public mutating func remember(_ changes: [Change], _ value: Slice<UnsafeBufferPointer<UInt8>>) {
        var shift = 0
        var next = 0
        var moved = false
        for change in changes {
            if shift != 0 { move(next..<change.member, by: shift) }
            let k = change.member
            let length = _members[k].end - _members[k].start
            _members[k].start += shift
            _members[k].valueStart += shift
            _members[k].end = _members[k].start + change.length
            shift += change.length - length
            moved = moved || shift != 0
            next = k + 1
        }
        // Any change of length moves the bytes after it (even when a later one moves them back).
        guard !moved else {
            move(next..<_members.count, by: shift)
            bytes.replaceSubrange(0..<bytes.count, with: UnsafeBufferPointer(rebasing: value))
            return
        }
        let start = value.startIndex
        bytes.withUnsafeMutableBufferPointer { old in
            for change in changes {
                let member = _members[change.member]
                for i in member.start..<member.end { old[i] = value[start + i] }
            }
        }
    }

    @inlinable
    mutating func move(_ range: Range<Int>, by shift: Int) {
        for k in range {
            _members[k].start += shift
            _members[k].valueStart += shift
            _members[k].end += shift
        }
    }
}
