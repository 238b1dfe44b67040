import Testing

@testable import ShootKit

/// The multicast stream alone: snapshot first, order, bounded subscribers, the end.
@Suite struct UpdateBroadcasterTests {
    static func note(_ number: Int) -> ShootUpdate { .note(ShootUpdate.Note(message: "note \(number)")) }

    @Test func everySubscriberStartsWithTheSnapshotThenGetsEachUpdateInOrder() async {
        let broadcaster = UpdateBroadcaster()
        broadcaster.publish(.state(ShootUpdate.StateChange(state: .connecting)))
        let first = broadcaster.subscribe()
        broadcaster.publish(Self.note(1))
        let second = broadcaster.subscribe()
        broadcaster.publish(Self.note(2))
        broadcaster.finish()
        var seenFirst: [ShootUpdate] = []
        for await update in first { seenFirst.append(update) }
        var seenSecond: [ShootUpdate] = []
        for await update in second { seenSecond.append(update) }
        var connecting = ShootSnapshot()
        connecting.state = .connecting
        #expect(seenFirst == [.snapshot(connecting), Self.note(1), Self.note(2)])
        #expect(seenSecond == [.snapshot(connecting), Self.note(2)])
    }

    @Test func aSlowBoundedSubscriberGetsTheLatestStateInsteadOfABacklog() async {
        let broadcaster = UpdateBroadcaster()
        let slow = broadcaster.subscribe(limit: 4)
        let everything = broadcaster.subscribe()
        // 1,000 updates while the slow subscriber reads nothing: publishing never waits for it.
        for number in 1...1000 {
            broadcaster.publish(
                .progress(
                    ShootUpdate.Progress(
                        set: 1, frame: number, sets: 1, framesInSet: 1000, speed: "1/60", setting: "1/60",
                        phase: "saved", completed: number, total: 1000)))
        }
        broadcaster.finish()
        var seen: [ShootUpdate] = []
        for await update in slow { seen.append(update) }
        #expect(seen.count <= 5)
        guard case .snapshot(let latest)? = seen.first else {
            Issue.record("the backlog did not become a snapshot: \(seen)")
            return
        }
        // The snapshot is the state after the last update published before it was taken.
        let frames =
            [latest.progress?.frame ?? 0]
            + seen.dropFirst().compactMap { update -> Int? in
                if case .progress(let progress) = update { return progress.frame }
                return nil
            }
        #expect(frames.last == 1000)
        var all = 0
        for await _ in everything { all += 1 }
        #expect(all == 1001)
    }

    @Test func endingOneSubscriptionHandsOutWhatItHoldsFirst() async {
        let broadcaster = UpdateBroadcaster()
        let subscription = broadcaster.subscribe()
        broadcaster.publish(Self.note(1))
        subscription.end()
        broadcaster.publish(Self.note(2))
        var seen: [ShootUpdate] = []
        for await update in subscription { seen.append(update) }
        #expect(seen == [.snapshot(ShootSnapshot()), Self.note(1)])
    }

    @Test func aCancelledReaderStopsWaiting() async {
        let broadcaster = UpdateBroadcaster()
        let subscription = broadcaster.subscribe()
        let reader = Task {
            var count = 0
            for await _ in subscription { count += 1 }
            return count
        }
        reader.cancel()
        // Nothing more is published: the reader ends only because it was cancelled.
        #expect(await reader.value <= 1)
    }
}
