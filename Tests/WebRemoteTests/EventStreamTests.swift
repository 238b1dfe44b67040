import HTTP
import TestSupport
import Testing

@testable import WebRemote

/// Server-Sent Events: the full state first, ids, keep-alives, and the latest state for a slow page.
@Suite(.realTime(timeLimit: .seconds(60))) struct EventStreamTests {
    @Test func aSlowWatcherGetsTheLatestStateNotABacklog() async {
        let hub = EventHub()
        let mailbox = hub.subscribe()
        for index in 1...100 { hub.publish(Array("{\"n\":\(index)}".utf8)) }
        #expect(await mailbox.next() == .event(RemoteEvent(id: 100, data: Array("{\"n\":100}".utf8))))
        hub.unsubscribe(mailbox)
        #expect(await mailbox.next() == nil)
    }

    @Test func aNewWatcherGetsTheWholeStateFirst() async {
        let hub = EventHub()
        hub.publish(Array("{\"a\":1}".utf8))
        hub.publish(Array("{\"a\":2}".utf8))
        let late = hub.subscribe()
        #expect(await late.next() == .event(RemoteEvent(id: 2, data: Array("{\"a\":2}".utf8))))
        hub.unsubscribe(late)
    }

    @Test func theStreamStartsWithTheStateAndCarriesIdsAndKeepAlives() async throws {
        let clock = TestClock()
        try await withServer(clock: clock, configure: { $0.writeTimeout = .seconds(600) }) { server, shoot in
            let client = try await RawClient(port: server.address.port)
            try await client.send(request("GET", "/events", port: server.address.port))
            var received: [UInt8] = []
            try await client.read(until: "\n\n" + "id: 1\ndata: ", into: &received)
            try await client.read(until: #""state":"idle"}"# + "\n\n", into: &received)
            shoot.publish(#"{"event":"snapshot","schema":1,"state":"shooting"}"#)
            try await client.read(
                until: "id: 2\ndata: " + #"{"event":"snapshot","schema":1,"state":"shooting"}"#, into: &received)
            let text = String(decoding: received, as: UTF8.self)
            #expect(text.hasPrefix("HTTP/1.1 200 OK\r\n"))
            #expect(text.contains("Content-Type: text/event-stream"))
            // The keep-alive comes after a silence of 15 s on the server's clock.
            let due = clock.now.advanced(by: .seconds(15))
            #expect(try await eventually { clock.pendingDeadlines.contains(due) }, "no keep-alive was armed")
            clock.advance(by: .seconds(15))
            try await client.read(until: ": keep-alive\n\n", into: &received)
        }
    }
}
