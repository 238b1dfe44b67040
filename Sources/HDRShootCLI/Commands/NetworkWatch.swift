import Foundation
import LegacyCamera
import NetworkMonitor
import Posix
import Shooting

/// Pauses a shoot the moment the host loses the camera's network and releases the pause when it is back.
///
/// Watches the interface that routes to the camera (a `NetworkMonitor` over netlink). When the link goes
/// down, the Wi-Fi association ends or the host moves to another SSID, it puts a `.network` hold on the
/// runner (the runner parks before the next frame); when the link is usable again and, on Wi-Fi, the SSID
/// is the camera's again, it releases the hold. The runner's reconnect (which waits while the hold is on)
/// then checks that the camera answers. A monitor that cannot start costs one warning line: the shoot goes
/// on without it.
struct NetworkWatch: Sendable {
    /// The monitor, running.
    let monitor: NetworkMonitor
    /// The camera's address, as watched.
    let cameraAddress: IPAddress
    /// The Wi-Fi network the camera was reached on (nil when the host is not on Wi-Fi or the SSID is unknown).
    let cameraSSID: SSID?
    /// The state when the watch started.
    let initial: NetworkSnapshot

    /// Starts watching the route to `host` (an IP literal or a name, resolved first); prints one warning
    /// line to `output` and returns nil when that is not possible.
    static func start(cameraHost host: String, output: any OutputStreams) async -> NetworkWatch? {
        guard let address = await resolve(host) else {
            output.writeError(
                "warning: cannot resolve \(host) to watch the network to the camera; "
                    + "the shoot goes on without pausing when the network drops\n")
            return nil
        }
        return await start(
            watching: NetworkMonitorConfiguration(target: .routeTo(address)), cameraAddress: address, output: output)
    }

    /// Starts a monitor with `configuration` (tests enter a namespace through it); nil, after one warning
    /// line, when it cannot start.
    static func start(
        watching configuration: NetworkMonitorConfiguration, cameraAddress: IPAddress, output: any OutputStreams
    ) async -> NetworkWatch? {
        let monitor = NetworkMonitor(configuration: configuration)
        do {
            let initial = try await monitor.start()
            return NetworkWatch(
                monitor: monitor, cameraAddress: cameraAddress, cameraSSID: initial.ssid, initial: initial)
        } catch {
            await monitor.stop()
            output.writeError(
                "warning: not watching the network to the camera (\(HDRShoot.message(for: error))); "
                    + "the shoot goes on without pausing when the network drops\n")
            return nil
        }
    }

    /// Runs `body` (the shoot) while following the monitor's events into `runner`'s `.network` hold;
    /// stops the monitor when `body` returns. `note` shows a changed reason while already paused, `warn`
    /// says (once) that the monitor stopped.
    func guarding<T: Sendable>(
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
    /// controller's update), a monitor that stops is a warning on standard error.
    static func guarding<T: Sendable>(
        _ runner: BracketRunner, with watch: NetworkWatch?, note: @escaping @Sendable (String) -> Void,
        output: any OutputStreams, _ body: () async -> T
    ) async -> T {
        guard let watch else { return await body() }
        return await watch.guarding(runner, note: note, warn: { output.writeError($0 + "\n") }, body)
    }

    /// Whether the `.network` hold is on, and with which message.
    private enum Hold {
        case released
        case held(message: String)
    }

    /// Judges the state at once and after every event of the monitor, pausing and resuming `runner`.
    func follow(into runner: BracketRunner, note: @Sendable (String) -> Void, warn: @Sendable (String) -> Void) async {
        let monitor = monitor
        await Self.follow(
            monitor.events, snapshot: { monitor.snapshot }, cameraSSID: cameraSSID, family: cameraAddress.family,
            into: runner, note: note,
            failed: {
                warn(
                    "warning: the network monitor stopped (\(HDRShoot.message(for: $0))); the shoot goes on without it"
                )
            })
    }

    /// Follows `events` into `runner`'s `.network` hold, judging `snapshot()` (the monitor's latest state)
    /// at once and after every event; `failed` is called when the events end with an error.
    static func follow(
        _ events: AsyncThrowingStream<NetworkEvent, any Error>, snapshot: () -> NetworkSnapshot, cameraSSID: SSID?,
        family: UInt8, into runner: BracketRunner, note: (String) -> Void, failed: (any Error) -> Void
    ) async {
        var hold = Hold.released
        func apply(_ snapshot: NetworkSnapshot) async {
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
                SessionLogging.record("network", [("event", .string("\(event)"))])
                await apply(snapshot())
            }
        } catch {
            SessionLogging.record("network", [("event", "monitorStopped"), ("error", .string("\(error)"))])
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

    /// Starts the watch for a shoot whose journal names `address` (`host:port`); nil without a warning for
    /// the built-in simulator (in-process, nothing to watch) or when `enabled` is false (`--no-network-monitor`).
    static func start(
        forJournalAddress address: String, enabled: Bool, output: any OutputStreams
    ) async -> NetworkWatch? {
        guard enabled else { return nil }
        switch CameraTarget(stored: address) {
        case let .address(parsed)?, let .host(parsed)?:
            return await start(cameraHost: parsed.host, output: output)
        case let .remoteAPI(url)?:
            guard let configuration = try? LegacySonyCameraConfiguration(url: url) else { return nil }
            return await start(cameraHost: configuration.host, output: output)
        case .simulator?, .apiSimulator?, nil:
            return nil
        }
    }

    /// `host` as an address: a literal at once, a name through Posix's one resolver (its first address).
    static func resolve(_ host: String) async -> IPAddress? {
        if let literal = IPAddress(host) { return literal }
        let addresses = try? await SocketAddress.resolve(host: host, port: 0)
        return addresses?.lazy.compactMap { IPAddress($0.host) }.first
    }
}
