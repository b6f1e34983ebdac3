/// The order in which a connection tries the broker's addresses.
///
/// Every connect walks the whole list once, starting at `start`; the node that
/// answered is where the next connect starts, unless its connection was lost,
/// in which case the next connect starts at the node after it (the lost node is
/// likely the one going away). With one address this is always that address.
struct BrokerAddresses {
    private let addresses: [AMQPAddress]
    private var start = 0

    /// `shuffled` spreads instances given the same list over the nodes.
    init(_ addresses: [AMQPAddress], shuffled: Bool) {
        self.addresses = shuffled ? addresses.shuffled() : addresses
    }

    /// The addresses in the order this connect tries them, with their positions.
    var inTurn: [(index: Int, address: AMQPAddress)] {
        (0..<addresses.count).map { offset in
            let index = (start + offset) % addresses.count
            return (index, addresses[index])
        }
    }

    /// The node at `index` answered: later connects start there.
    mutating func connected(to index: Int) { start = index }

    /// The connection to the node at `start` was lost: the next connect starts after it.
    mutating func lost() {
        if !addresses.isEmpty { start = (start + 1) % addresses.count }
    }
}
