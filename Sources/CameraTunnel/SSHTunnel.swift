import Posix

/// What the tunnel tells the person watching: it closed and is being opened again, or it is back.
package enum SSHTunnelEvent: Sendable, Equatable {
    /// `ssh` ended during the shoot; `detail` is its last line (may be empty).
    case closed(detail: String)
    /// A new `ssh` forwards again on the same local port.
    case reopened
}

/// PTP/IP over SSH: one `ssh` process forwarding a free loopback port to the camera's `localhost:15740`, kept
/// open for as long as a command needs the camera.
///
/// `open()` starts `ssh` and returns once the forward accepts connections (`ssh` binds it only after the
/// login), never after a fixed sleep. `supervise()` runs beside the shoot: when `ssh` ends while the tunnel
/// should be open (the Wi-Fi dropped, the camera slept, someone killed it) it starts a new one on the same
/// port, so the runner's reconnect finds the camera where it was. A login refused or a changed key ends the
/// supervision with `failure` set. `close()` ends `ssh` by its PID and waits for it.
package actor SSHTunnel {
    /// Where the tunnel is.
    package enum State: Sendable {
        /// Not opened yet.
        case idle
        /// `ssh` forwards.
        case open(ChildProcess)
        /// `ssh` ended; a new one is being started.
        case reopening
        /// A new one cannot be started (a refused login, a changed key).
        case failed(SSHTunnelError)
        /// Closed for good.
        case closed
    }

    private let configuration: SSHTunnelConfiguration
    private let password: String
    private let clock: any Clock<Duration>
    private let onEvent: @Sendable (SSHTunnelEvent) -> Void
    /// Where the tunnel is now.
    package private(set) var state: State = .idle
    /// The loopback port PTP/IP connects to (0 until opened).
    package private(set) var localPort: UInt16 = 0

    /// A tunnel for `configuration`, logging in with `password`.
    package init(
        configuration: SSHTunnelConfiguration, password: String, clock: any Clock<Duration> = ContinuousClock(),
        onEvent: @escaping @Sendable (SSHTunnelEvent) -> Void = { _ in }
    ) {
        self.configuration = configuration
        self.password = password
        self.clock = clock
        self.onEvent = onEvent
    }

    /// Why the tunnel could not be opened again, once supervision gave up.
    package var failure: SSHTunnelError? {
        if case let .failed(error) = state { return error }
        return nil
    }

    /// The PID of the running `ssh`, if one runs.
    package var sshProcessID: Int32? {
        if case let .open(child) = state { return child.pid }
        return nil
    }

    /// Picks a free loopback port, starts `ssh` and waits until its forward accepts; returns the port.
    package func open() async throws(SSHTunnelError) -> UInt16 {
        guard case .idle = state else { return localPort }
        localPort = try Self.freeLoopbackPort()
        try await launch()
        return localPort
    }

    /// Restarts `ssh` whenever it ends while the tunnel should be open, until the task is cancelled or a
    /// restart fails for good.
    package func supervise() async {
        while true {
            guard case let .open(child) = state else { return }
            let status = await child.exitStatus()
            guard case .open = state, !Task.isCancelled else { return }
            let detail = Self.lastLine(of: child.errorOutput)
            state = .reopening
            let fallback =
                status > 128 && status < 160
                ? "ssh was ended by signal \(status - 128)"
                : status < 0 ? "ssh was ended by a signal" : "ssh exited with status \(status)"
            onEvent(.closed(detail: detail.isEmpty ? fallback : detail))
            var attempt = 0
            while true {
                let wait = configuration.reopenWaits[min(attempt, configuration.reopenWaits.count - 1)]
                attempt += 1
                do {
                    try await clock.sleep(for: wait)
                } catch {
                    return
                }
                guard case .reopening = state else { return }
                do throws(SSHTunnelError) {
                    try await launch()
                    onEvent(.reopened)
                    break
                } catch {
                    guard case .reopening = state else { return }
                    if !error.isTransient {
                        state = .failed(error)
                        return
                    }
                }
            }
        }
    }

    /// Ends `ssh` (SIGTERM, then SIGKILL) by its PID and waits until it is reaped.
    package func close() async {
        let running: ChildProcess?
        if case let .open(child) = state { running = child } else { running = nil }
        if case .failed = state {} else { state = .closed }
        await running?.terminate()
    }

    // MARK: - Starting ssh

    private func launch() async throws(SSHTunnelError) {
        let askpass = try SSHAskpass(password: password, temporaryFolder: configuration.temporaryFolder)
        defer { askpass.close() }
        var environment = configuration.environment.filter { ["PATH", "HOME", "LANG"].contains($0.key) }
        environment["SSH_ASKPASS"] = configuration.askpassProgram
        environment["SSH_ASKPASS_REQUIRE"] = "force"
        environment[SSHAskpass.variable] = askpass.path
        let child = try ChildProcess.start(
            "/bin/bash",
            ["-c", Self.guardScript, "hdrshoot-ssh", configuration.tools.ssh]
                + configuration.sshArguments(localPort: localPort),
            environment: environment, holdingInput: true)
        let deadline = ContinuousClock.now + configuration.loginTimeout
        while true {
            if let status = child.status {
                throw classify(status: status, errorOutput: child.errorOutput)
            }
            if await Self.accepts(port: localPort) {
                if case .closed = state {
                    await child.terminate()
                    throw .exited(status: -1, detail: "the tunnel was closed while it opened")
                }
                state = .open(child)
                return
            }
            if ContinuousClock.now >= deadline {
                await child.terminate()
                throw .timedOut(seconds: Int(configuration.loginTimeout.components.seconds))
            }
            // Polling a loopback port costs nothing; the login itself takes a round trip or three.
            try? await Task.sleep(for: .milliseconds(50))
        }
    }

    /// The shell that runs `ssh` for hdrshoot: it kills `ssh` when its standard input (a pipe hdrshoot holds)
    /// reaches its end, which the kernel brings about when hdrshoot dies however it dies (SIGKILL, a signal's
    /// default action), and it ends when `ssh` ends. `ssh` itself cannot watch for this: it closes every
    /// inherited descriptor and, with `-N`, never reads its input. SIGKILL, because `ssh` keeps ignoring the
    /// SIGTERM and SIGINT hdrshoot ignored while it shot (an ignored disposition survives exec, and `ssh` leaves
    /// an ignored signal ignored). Builtins only (bash's `read -t`, `/proc/PID/stat`, whose last field is a
    /// zombie's wait status), and the script ends with `ssh`'s status (137 for one killed by SIGKILL), so the
    /// line that says the tunnel closed gives the real reason. `wait` only for a child the shell has reaped
    /// already: it inherits hdrshoot's blocked signals, SIGCHLD among them, so waiting for a running child would
    /// never wake.
    static let guardScript = """
        ssh="$1"; shift
        # ssh's own messages go to hdrshoot; the shell's (a job reported killed) go nowhere.
        exec 3>&2 2>/dev/null
        "$ssh" "$@" </dev/null 2>&3 3>&- &
        child=$!
        while :; do
            read -r -t 0.1 _
            got=$?
            if [ $got -ne 0 ] && [ $got -le 128 ]; then kill -KILL $child 2>/dev/null; exit 255; fi
            # Gone from /proc: the shell reaped it already and keeps its status, so this wait returns at once.
            read -r stat < /proc/$child/stat || { wait $child; exit $?; }
            case "$stat" in
            *") Z "*)
                code=${stat##* }
                sig=$(( code & 127 ))
                [ $sig -ne 0 ] && exit $(( 128 + sig ))
                exit $(( (code >> 8) & 255 )) ;;
            esac
        done
        """

    private func classify(status: Int32, errorOutput: String) -> SSHTunnelError {
        let text = errorOutput
        if text.contains("Permission denied") || text.contains("Too many authentication failures") {
            return .loginRefused(user: configuration.user, host: configuration.host)
        }
        if text.contains("HOST IDENTIFICATION HAS CHANGED") || text.contains("Host key verification failed") {
            return .hostKeyChanged(host: configuration.host, kept: "", found: nil)
        }
        if text.contains("forwarding failed") || text.contains("administratively prohibited")
            || text.contains("Could not request local forwarding") || text.contains("cannot listen to port")
        {
            return .forwardRefused(detail: Self.lastLine(of: text))
        }
        if text.contains("Connection refused") || text.contains("timed out") || text.contains("No route to host")
            || text.contains("Network is unreachable") || text.contains("Connection closed")
            || text.contains("Connection reset")
        {
            return .unreachable(host: configuration.host, port: configuration.port, detail: Self.lastLine(of: text))
        }
        return .exited(status: status, detail: Self.lastLine(of: text))
    }

    private static func lastLine(of text: String) -> String {
        text.split(separator: "\n").last { !$0.trimmingWhitespace().isEmpty }.map { String($0.trimmingWhitespace()) }
            ?? ""
    }

    /// Whether something accepts TCP connections on `127.0.0.1:port` now.
    private static func accepts(port: UInt16) async -> Bool {
        guard let address = SocketAddress(numericHost: "127.0.0.1", port: port),
            let socket = try? Socket(family: address.family)
        else { return false }
        defer { socket.close() }
        do {
            try await socket.connect(to: address)
            return true
        } catch {
            return false
        }
    }

    /// A loopback port nothing listens on now (bound, read, released).
    private static func freeLoopbackPort() throws(SSHTunnelError) -> UInt16 {
        guard let any = SocketAddress(numericHost: "127.0.0.1", port: 0) else {
            throw .forwardRefused(detail: "no loopback address")
        }
        do throws(SocketFailure) {
            let socket = try Socket(family: any.family)
            defer { socket.close() }
            try socket.listen(on: any, backlog: 1)
            guard let bound = try socket.localAddress() else { throw .closed }
            return bound.port
        } catch {
            throw .forwardRefused(detail: "cannot find a free loopback port: \(error)")
        }
    }
}

extension Substring {
    fileprivate func trimmingWhitespace() -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return self[first...last]
    }
}
