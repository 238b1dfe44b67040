import Posix
import ShootKit
import Synchronization
import WebRemote

/// The phone remote beside a shoot: `run --remote`, `resume --remote` and `serve` build their server here, print
/// its `Remote:` line, and serve it while the shoot runs. The page drives the same `ShootController` the terminal
/// does (`ControllerRemote`); it never holds a shoot of its own.
enum RemoteServing {
    /// `--remote` of `run` and `resume`.
    static let remoteOption = OptionSpec.value(
        "remote", placeholder: "<address:port>",
        help: "Also serve the phone remote for this shoot (e.g. 127.0.0.1:8080 or wlan0:8080); prints its URL.")
    /// `--token-file` of `serve`, `run` and `resume`.
    static let tokenFileOption = OptionSpec.value(
        "token-file", placeholder: "<file>",
        help: "Keep the remote's token in this file across restarts (created when missing, mode 0600).")

    /// A server listening on `text` for `remote`; usage errors for a bad address or token file.
    static func server(
        listening text: String, option: String, arguments: ParsedArguments, simulated: Bool, remote: ControllerRemote
    ) throws -> WebServer {
        let listen: ListenAddress
        do {
            listen = try ListenAddress(text)
        } catch {
            throw UsageError("--\(option): \(error)", command: arguments.command)
        }
        let token: RemoteToken
        if let file = arguments.string("token-file") {
            do {
                token = try RemoteToken.load(orCreateAt: file)
            } catch {
                throw UsageError("--token-file: \(error)", command: arguments.command)
            }
        } else {
            token = RemoteToken.random()
        }
        var configuration = WebServer.Configuration(
            address: listen.address, interfaceName: listen.interfaceName, token: token)
        configuration.simulated = simulated
        do {
            return try WebServer(configuration: configuration, shoot: remote)
        } catch {
            let reason: String
            switch error {
            case let .system(errno, call): reason = "\(call): \(errno)"
            case .timedOut, .closed, .cancelled: reason = "the socket closed"
            }
            throw RemoteServeError.cannotListen(address: listen.description, reason: reason)
        }
    }

    /// Prints `Remote: URL` on standard output at once (standard error with `--json`, whose standard output is
    /// update lines only), and its QR code when that stream is a terminal.
    static func announce(_ server: WebServer, json: Bool, output: any OutputStreams) {
        let descriptor: FileDescriptor = json ? .standardError : .standardOutput
        let onTerminal = output.reachesProcessStreams && TerminalMode.isTerminal(descriptor)
        let text = RemoteAnnouncement.text(url: server.url, onTerminal: onTerminal)
        if json { output.writeError(text) } else { output.writeOut(text) }
    }

    /// Runs `shoot` with the remote served beside it for `controller`; the server stops when the shoot ends.
    static func serving(
        _ text: String, arguments: ParsedArguments, simulated: Bool, json: Bool, controller: ShootController,
        output: any OutputStreams, _ shoot: @Sendable () async throws -> ExitCode
    ) async throws -> ExitCode {
        let remote = ControllerRemote { _ throws(RemoteCommandRefusal) in
            throw RemoteCommandRefusal(
                "This shoot was started from the terminal; start the next one there, or with hdrshoot serve.")
        }
        let server = try server(
            listening: text, option: "remote", arguments: arguments, simulated: simulated, remote: remote)
        announce(server, json: json, output: output)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await server.run() }
            // run and resume keep a session log (their task's); the page reads the link's health from it.
            let writer = SessionLogging.current
            let log = writer.map { writer in SessionLogTail { writer.path } }
            group.addTask { await remote.follow(controller, log: log) }
            let code = try await shoot()
            group.cancelAll()
            return code
        }
    }
}

/// What stops the remote from being served.
enum RemoteServeError: Error, Sendable, Equatable, CLIReportable {
    /// The address cannot be listened on (in use, not this host's).
    case cannotListen(address: String, reason: String)

    var cliMessage: String {
        switch self {
        case let .cannotListen(address, reason):
            return "cannot serve the remote on \(address) (\(reason)); is another hdrshoot serving there?"
        }
    }

    var exitCode: ExitCode { .unavailable }
}
