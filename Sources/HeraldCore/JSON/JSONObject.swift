/// The members of a JSON object, in the order they were written or added.
///
/// Order matters to Herald: an event's `context` or a raw `apns` payload is
/// relayed as the sender wrote it, and outcomes are encoded with a fixed key
/// order. Keys are unique: setting an existing key replaces its value in
/// place.
///
/// Lookups scan a small object linearly and use a hash index once it grows
/// past ``indexThreshold`` members, so a hostile body with 100 000 keys costs
/// linear, not quadratic, time.
///
/// Equality ignores order (`{"a":1,"b":2}` equals `{"b":2,"a":1}`), as JSON
/// does. Keys compare as Swift strings, that is by canonical equivalence, so
/// `"é"` precomposed and decomposed are the same key.
public struct JSONObject: Sendable {
    /// The keys, in order.
    public private(set) var keys: [String]
    /// The values, in the order of ``keys``.
    public private(set) var values: [JSONValue]
    /// Position of each key, kept only for objects larger than ``indexThreshold``.
    private var index: [String: Int]?

    /// Objects up to this many members are searched linearly.
    static let indexThreshold = 12

    /// Room reserved by the first member added.
    static let initialCapacity = 8

    /// An empty object.
    public init() {
        keys = []
        values = []
        index = nil
    }

    /// An object from key/value pairs in order; a repeated key keeps its
    /// last value (at its first position).
    public init(_ members: some Sequence<(String, JSONValue)>) {
        self.init()
        for (key, value) in members {
            self[key] = value
        }
    }

    /// An object from keys the caller knows are distinct (the parser has
    /// checked), with `values` in the same order.
    init(uniqueKeys keys: [String], values: [JSONValue]) {
        self.keys = keys
        self.values = values
        index = nil
        if keys.count > Self.indexThreshold {
            rebuildIndex()
        }
    }

    /// How many members the object has.
    public var count: Int { keys.count }

    /// `true` when the object has no members.
    public var isEmpty: Bool { keys.isEmpty }

    /// `true` when the object has a member named `key`.
    public func contains(_ key: String) -> Bool {
        position(of: key) != nil
    }

    /// The value of `key`; setting `nil` removes the member, setting a value
    /// replaces it in place or appends it.
    public subscript(key: String) -> JSONValue? {
        get {
            guard let position = position(of: key) else { return nil }
            return values[position]
        }
        set {
            if let newValue {
                updateValue(newValue, forKey: key)
            } else {
                removeValue(forKey: key)
            }
        }
    }

    /// Sets `key` to `value`, returning the value it replaced.
    @discardableResult
    public mutating func updateValue(_ value: JSONValue, forKey key: String) -> JSONValue? {
        if let position = position(of: key) {
            let old = values[position]
            values[position] = value
            return old
        }
        appendNew(key, value)
        return nil
    }

    /// Removes `key`, returning its value if it was there. Later members
    /// keep their order.
    @discardableResult
    public mutating func removeValue(forKey key: String) -> JSONValue? {
        guard let position = position(of: key) else { return nil }
        keys.remove(at: position)
        let removed = values.remove(at: position)
        if index != nil {
            rebuildIndex()
        }
        return removed
    }

    // MARK: Internal

    /// Where `key` is, if present.
    func position(of key: String) -> Int? {
        if let index { return index[key] }
        return keys.firstIndex(of: key)
    }

    /// Appends a member whose key the caller knows is absent.
    mutating func appendNew(_ key: String, _ value: JSONValue) {
        if keys.isEmpty {
            // Objects built member by member (payloads, outcomes) have a few to
            // a dozen members: one allocation per array, not four as it doubles.
            keys.reserveCapacity(Self.initialCapacity)
            values.reserveCapacity(Self.initialCapacity)
        }
        keys.append(key)
        values.append(value)
        if index != nil {
            index?[key] = keys.count - 1
        } else if keys.count > Self.indexThreshold {
            rebuildIndex()
        }
    }

    /// Runs `body` on the value at `position` in place (no copy of the value).
    mutating func modifyValue(at position: Int, _ body: (inout JSONValue) -> Void) {
        body(&values[position])
    }

    private mutating func rebuildIndex() {
        guard keys.count > Self.indexThreshold else {
            index = nil
            return
        }
        var rebuilt = [String: Int](minimumCapacity: keys.count)
        for (position, key) in keys.enumerated() {
            rebuilt[key] = position
        }
        index = rebuilt
    }
}

extension JSONObject: Hashable {
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.count == rhs.count else { return false }
        for (key, value) in lhs {
            guard let other = rhs[key], other == value else { return false }
        }
        return true
    }

    public func hash(into hasher: inout Hasher) {
        // Order-independent: combine per-member hashes commutatively.
        var combined = 0
        for (key, value) in self {
            var member = Hasher()
            member.combine(key)
            member.combine(value)
            combined = combined &+ member.finalize()
        }
        hasher.combine(count)
        hasher.combine(combined)
    }
}

extension JSONObject: Sequence {
    /// Members in order, as `(key, value)` pairs.
    public struct Iterator: IteratorProtocol {
        private let object: JSONObject
        private var position = 0

        init(_ object: JSONObject) {
            self.object = object
        }

        public mutating func next() -> (key: String, value: JSONValue)? {
            guard position < object.keys.count else { return nil }
            defer { position += 1 }
            return (object.keys[position], object.values[position])
        }
    }

    public func makeIterator() -> Iterator { Iterator(self) }

    public var underestimatedCount: Int { count }
}

extension JSONObject: CustomStringConvertible {
    /// The compact JSON text of the object.
    public var description: String { JSONValue.object(self).jsonString }
}
