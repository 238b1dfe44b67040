import Foundation
import NetworkMonitor
import Posix
import Shooting

/// Pauses a shoot the moment the host loses the camera's network and releases the pause when it is back.
///
/// Watches the interface that routes to the camera (a `NetworkMonitor` over netlink). When the link goes
/// down, the Wi-Fi association ends, the host moves to another SSID or, when the host is the access point
/// the camera joined, the camera's station leaves it (nl80211 DEL_STATION), it puts a `.network` hold on the
/// runner (the runner parks before the next frame); when the link is usable again and, on Wi-Fi, the SSID
/// is the camera's again, it releases the hold. The runner's reconnect (which waits while the hold is on)
/// then checks that the camera answers. A monitor that cannot start costs one warning line: the shoot goes
/// on without it.
package struct NetworkWatch: Sendable {
    /// The monitor, running.
    package let monitor: NetworkMonitor
    /// The camera's address, as watched.
    package let cameraAddress: IPAddress
    /// The Wi-Fi network the camera was reached on (nil when the host is not on Wi-Fi or the SSID is unknown).
    package let cameraSSID: SSID?
    /// The state when the watch started.
    package let initial: NetworkSnapshot
    /// Give the monitor's errors their sentences.
    let messages: any ShootMessages
    /// Hears each monitor event for the session log, as fields (`event`, and `error` when it stopped).
    let record: @Sendable ([(String, String)]) -> Void

    /// Starts watching the route to `host` (an IP literal or a name, resolved first); says one warning line
    /// through `warn` and returns nil when that is not possible.
    package static func start(
        cameraHost host: String, messages: any ShootMessages,
        record: @escaping @Sendable ([(String, String)]) -> Void = { _ in }, warn: (String) -> Void
    ) async -> NetworkWatch? {
        guard let address = await resolve(host) else {
            warn(
                "warning: cannot resolve \(host) to watch the network to the camera; "
                    + "the shoot goes on without pausing when the network drops")
            return nil
        }
        return await start(
            watching: NetworkMonitorConfiguration(target: .routeTo(address), station: .neighbour(address)),
            cameraAddress: address,
            messages: messages, record: record, warn: warn)
    }

    /// Starts a monitor with `configuration` (tests enter a namespace through it); nil, after one warning
    /// line, when it cannot start.
    package static func start(
        watching configuration: NetworkMonitorConfiguration, cameraAddress: IPAddress, messages: any ShootMessages,
        record: @escaping @Sendable ([(String, String)]) -> Void = { _ in }, warn: (String) -> Void
    ) async -> NetworkWatch? {
        let monitor = NetworkMonitor(configuration: configuration)
        do {
            let initial = try await monitor.start()
            return NetworkWatch(
                monitor: monitor, cameraAddress: cameraAddress, cameraSSID: initial.ssid, initial: initial,
                messages: messages, record: record)
        } catch {
            await monitor.stop()
            warn(
                "warning: not watching the network to the camera (\(messages.message(for: error))); "
                    + "the shoot goes on without pausing when the network drops")
            return nil
        }
    }

    /// Runs `body` (the shoot) while following the monitor's events into `runner`'s `.network` hold;
    /// stops the monitor when `body` returns. `note` shows a changed reason while already paused, `warn`
    /// says (once) that the monitor stopped.
    package func guarding<T: Sendable>(
        _ runner: BracketRunner, note: @escaping @Sendable (String) -> Void,
        warn: @escaping @Sendable (String) -> Void, _ body: () async -> T
    ) async -> T {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.follow(into: runner, note: note, warn: warn) }
            let result = await body()
            await monitor.stop() // ends the event stream, so `follow` returns
            group.cancelAll()
            await group.waitForAll()
            return result
        }
    }

    /// Runs `body` (the shoot) guarded by `watch` when there is one: a changed reason is a `note` (the
    /// controller's update), a monitor that stops is a `warn` line.
    package static func guarding<T: Sendable>(
        _ runner: BracketRunner, with watch: NetworkWatch?, note: @escaping @Sendable (String) -> Void,
        warn: @escaping @Sendable (String) -> Void, _ body: () async -> T
    ) async -> T {
        guard let watch else { return await body() }
        return await watch.guarding(runner, note: note, warn: warn, body)
    }

    /// Whether the `.network` hold is on, and with which message.
    private enum Hold {
        case released
        case held(message: String)
    }

    /// Judges the state at once and after every event of the monitor, pausing and resuming `runner`.
    package func follow(
        into runner: BracketRunner, note: @Sendable (String) -> Void, warn: @Sendable (String) -> Void
    ) async {
        let (monitor, messages) = (monitor, messages)
        await Self.follow(
            monitor.events, snapshot: { monitor.snapshot }, cameraSSID: cameraSSID, family: cameraAddress.family,
            into: runner, note: note, record: record,
            failed: {
                warn(
                    "warning: the network monitor stopped (\(messages.message(for: $0))); the shoot goes on without it"
                )
            })
    }

    /// Follows `events` into `runner`'s `.network` hold, judging `snapshot()` (the monitor's latest state)
    /// at once and after every event; `failed` is called when the events end with an error; `record` hears
    /// each event for the session log.
    package static func follow(
        _ events: AsyncThrowingStream<NetworkEvent, any Error>, snapshot: () -> NetworkSnapshot, cameraSSID: SSID?,
        family: UInt8, into runner: BracketRunner, note: (String) -> Void,
        record: ([(String, String)]) -> Void = { _ in }, failed: (any Error) -> Void
    ) async {
        var hold = Hold.released
        var saidUnresolved = false
        func apply(_ snapshot: NetworkSnapshot) async {
            // Said once: following the camera's station silently doing nothing would look like protection.
            if snapshot.station == .unresolved, !saidUnresolved {
                saidUnresolved = true
                record([("event", "stationUnresolved")])
                note(NetworkVerdict.unresolvedStationMessage(snapshot))
            }
            switch (NetworkVerdict.judge(snapshot, cameraSSID: cameraSSID, family: family), hold) {
            case (.lost(let message), .released):
                hold = .held(message: message)
                await runner.pause(reason: PauseReason(.network, detail: message))
            case (.lost(let message), .held(let shown)) where message != shown:
                hold = .held(message: message)
                note(message)
            case (.usable, .held):
                hold = .released
                await runner.resume(
                    reason: PauseReason(.network, detail: NetworkVerdict.backMessage(snapshot, cameraSSID: cameraSSID)))
            case (.lost, .held), (.usable, .released):
                break
            }
        }
        await apply(snapshot())
        do {
            // Every event (eventsLost included) is answered from the latest snapshot: after lost events the
            // monitor has re-read the full state, and a burst of events needs only its final state.
            for try await event in events where event != .wirelessUnavailable {
                record([("event", "\(event)")])
                await apply(snapshot())
            }
        } catch {
            record([("event", "monitorStopped"), ("error", "\(error)")])
            failed(error)
            // Nothing would ever release the hold now; the runner's reconnect still waits for the camera.
            if case .held = hold {
                await runner.resume(
                    reason: PauseReason(
                        .network, detail: "The network monitor stopped; continuing once the camera answers."))
            }
        }
    }

    // MARK: - Helpers

    /// `host` as an address: a literal at once, a name through Posix's one resolver (its first address).
    package static func resolve(_ host: String) async -> IPAddress? {
        if let literal = IPAddress(host) { return literal }
        let addresses = try? await SocketAddress.resolve(host: host, port: 0)
        return addresses?.lazy.compactMap { IPAddress($0.host) }.first
    }
}
