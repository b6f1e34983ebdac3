@testable import HeraldAMQP
import Testing

@Suite("Broker address order (no sockets)")
struct BrokerAddressesTests {
    let nodes = try! ["amqp://a:1@n1:5701/%2f", "amqp://b:2@n2:5702/%2f", "amqp://c:3@n3:5703/%2f"].map {
        AMQPAddress(try AMQPURL($0))
    }

    private func hosts(_ addresses: BrokerAddresses) -> [String] { addresses.inTurn.map(\.address.url.host) }

    @Test func everyConnectTriesEachAddressOnceStartingWhereTheLastOneAnswered() {
        var addresses = BrokerAddresses(nodes, shuffled: false)
        #expect(hosts(addresses) == ["n1", "n2", "n3"])
        addresses.connected(to: 2)
        #expect(hosts(addresses) == ["n3", "n1", "n2"], "the node that answered is tried first next time")
    }

    @Test func aLostConnectionMovesTheNextConnectToTheFollowingNode() {
        var addresses = BrokerAddresses(nodes, shuffled: false)
        addresses.connected(to: 1)
        addresses.lost()
        #expect(hosts(addresses) == ["n3", "n1", "n2"], "the lost node is tried last")
        addresses.connected(to: 2)
        addresses.lost()
        #expect(hosts(addresses) == ["n1", "n2", "n3"], "and the order wraps around")
    }

    @Test func oneAddressIsAlwaysThatAddress() {
        var addresses = BrokerAddresses([nodes[0]], shuffled: true)
        addresses.lost()
        #expect(hosts(addresses) == ["n1"])
        #expect(addresses.inTurn.first?.address.url.user == "a", "each address keeps its own credentials")
    }

    @Test func shufflingReordersButKeepsEveryAddress() {
        let many = (1...20).map { AMQPAddress(try! AMQPURL("amqp://u:p@n\($0):5672/%2f")) }
        let orders = Set((0..<10).map { _ in BrokerAddresses(many, shuffled: true).inTurn.map(\.address.url.host) })
        #expect(orders.allSatisfy { Set($0) == Set(many.map(\.url.host)) && $0.count == 20 })
        #expect(orders.count > 1, "ten shuffles of twenty addresses are not all the same order")
    }
}
