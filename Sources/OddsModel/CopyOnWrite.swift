/// A value kept behind one pointer and copied only when changed while shared: what an `Array` does
/// for its elements, for one value. An event keeps its fields in one: it is moved from the decoder
/// through a frame's updates into the store many times, and behind a pointer each move is a word, not
/// a copy of every field. Not for small values made on one thread and consumed on another (a price
/// update: the box's allocation and its free on the other thread cost more than the moves saved).
///
/// Equal and hashed by its value, so a type made of one is `Hashable` as its fields were.
@usableFromInline
struct CopyOnWrite<Value: Hashable & Sendable>: Hashable, Sendable {
    @usableFromInline
    final class Storage: @unchecked Sendable {  // changed only while uniquely referenced (`value`'s `_modify`)
        // Unchecked: an access is already checked where the value that holds the storage is kept (a
        // variable, a class's property); the runtime's check of each access would only repeat it.
        @exclusivity(unchecked) @usableFromInline var value: Value
        @usableFromInline init(_ value: Value) { self.value = value }
    }

    @usableFromInline var storage: Storage

    @inlinable init(_ value: Value) { storage = Storage(value) }

    /// The value; changing it copies it first when another `CopyOnWrite` shares it.
    @inlinable var value: Value {
        _read { yield storage.value }
        _modify {
            if !isKnownUniquelyReferenced(&storage) { storage = Storage(storage.value) }
            yield &storage.value
        }
    }

    @inlinable static func == (a: CopyOnWrite, b: CopyOnWrite) -> Bool { a.storage === b.storage || a.storage.value == b.storage.value }
    @inlinable func hash(into hasher: inout Hasher) { hasher.combine(storage.value) }
}
