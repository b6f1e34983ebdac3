/// A binary min-heap of deadlines for delayed responses, so latency injection
/// costs O(log n) per response and never blocks the loop.
struct TimerHeap<Payload> {
    private var items: [(deadline: UInt64, sequence: UInt64, payload: Payload)] = []
    private var nextSequence: UInt64 = 0

    var isEmpty: Bool { items.isEmpty }
    var earliestDeadline: UInt64? { items.first?.deadline }

    mutating func insert(deadline: UInt64, _ payload: Payload) {
        items.append((deadline, nextSequence, payload))
        nextSequence &+= 1
        var child = items.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard less(child, parent) else { break }
            items.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes and returns every payload whose deadline is at or before `now`, earliest first.
    mutating func popDue(now: UInt64) -> [Payload] {
        var due: [Payload] = []
        while let first = items.first, first.deadline <= now {
            due.append(first.payload)
            let last = items.removeLast()
            guard !items.isEmpty else { break }
            items[0] = last
            siftDown(0)
        }
        return due
    }

    mutating func removeAll() { items.removeAll() }

    private func less(_ a: Int, _ b: Int) -> Bool {
        (items[a].deadline, items[a].sequence) < (items[b].deadline, items[b].sequence)
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < items.count, less(left, smallest) { smallest = left }
            if right < items.count, less(right, smallest) { smallest = right }
            guard smallest != parent else { return }
            items.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
