/// The last `capacity` keys inserted, oldest forgotten first: what a relay
/// has already pushed, so a notice heard twice (its own write coming back,
/// two listeners) is pushed once, in bounded memory.
public struct RecentKeys: Sendable {
    public let capacity: Int
    private var keys: Set<String> = []
    private var order: [String] = []
    private var oldest = 0

    public init(capacity: Int) { self.capacity = capacity }

    /// Inserts `key`; false when it is already held.
    public mutating func insert(_ key: String) -> Bool {
        guard keys.insert(key).inserted else { return false }
        if order.count < capacity {
            order.append(key)
        } else {
            keys.remove(order[oldest])
            order[oldest] = key
            oldest = (oldest + 1) % capacity
        }
        return true
    }
}
