import Exposure
import Foundation
import Posix
import ShootKit
import Shooting
import Synchronization
import WebRemote

/// `hdrshoot serve`: the phone remote on its own. Shoots are planned, confirmed, paused and watched from the
/// page; each one goes through `run`'s own pipeline (the same preparation, controller, journal and output), with
/// the page's form as its readings and the page's Confirm as its answer.
enum ServeCommand {
    /// Options of `run` that mean nothing here: the page confirms, `--json` is the page's, a series and `--auto`
    /// are not started from the page yet.
    private static let notServed: Set<String> = [
        "confirm", "json", "auto", "link-shared", "output", "every", "count", "until", "forever", "shadow",
        "highlight", "remote", "token-file"
    ]

    static let spec = CommandSpec(
        name: "serve",
        abstract: "Serve the phone remote: plan, shoot, pause and watch brackets from a phone's browser.",
        discussion: """
            Listens on --listen (an address or an interface name with a port; never every network) and prints one
            line, 'Remote: http://ADDRESS:PORT/#token=TOKEN', and on a terminal its QR code: open it on the phone.
            The page plans a bracket from Shadow, Highlight and Frames, shows the plan and waits for Confirm, then
            shows progress, the last frame with its histogram and the range verdicts; Pause, Resume and Stop act on
            the shoot. An unfinished shoot in --output is offered as Resume (as 'hdrshoot resume' would continue it). Commands need the token (it travels in the URL's fragment); reading the state does not. Each
            shoot gets its own folder in --output. The other options are run's, as defaults for every shoot.
            Runs until SIGINT or SIGTERM.
            """,
        options: [
            .value(
                "listen", placeholder: "<address:port>",
                help: "Where the remote listens: 127.0.0.1:8080, 192.168.4.1:8080 or wlan0:8080.", required: true),
            .value(
                "output", placeholder: "<dir>", help: "The folder that holds the shoots' folders (one per shoot).",
                default: "."),
            RemoteServing.tokenFileOption
        ] + RunCommand.spec.options.filter { !notServed.contains($0.name) },
        run: run
    )

    @Sendable private static func run(_ arguments: ParsedArguments, _ context: CommandContext) async throws -> ExitCode
    {
        let listen = try arguments.required("listen") { $0 }
        let options = try ShootConsole.options(from: arguments, context: context)
        var simulated = false
        if case .simulator? = options.target { simulated = true }
        let parent = RunCommand.absolutePath(arguments.string("output") ?? ".")
        let (events, eventSink) = AsyncStream.makeStream(of: ServeEvent.self, bufferingPolicy: .bufferingNewest(8))
        let slot = ShootSlot()
        let store = options.store
        let scale = arguments.string("scale").flatMap(ShutterScale.init(rawValue:)) ?? .third
        let remote = ControllerRemote(
            scale: scale, messages: CLIMessages(),
            start: { request throws(RemoteCommandRefusal) in
                var request = request
                if case .resume(var resume) = request {
                    // Only a shoot of this --output, and only one the page could have been offered.
                    let offered = await resumable(in: parent, store: store, id: resume.id)
                    guard let offered else {
                        throw RemoteCommandRefusal(
                            resume.id.map { "No unfinished shoot \($0) in \(parent) to resume." }
                                ?? "No unfinished shoot in \(parent) to resume.")
                    }
                    resume.id = offered.id
                    request = .resume(resume)
                }
                guard slot.take() else { throw RemoteCommandRefusal("A shoot is under way; stop it first.") }
                eventSink.yield(.shoot(request))
            },
            resumable: { await resumable(in: parent, store: store, id: nil) },
            checkCamera: { () throws(RemoteCommandRefusal) in
                guard slot.take() else {
                    throw RemoteCommandRefusal("A shoot is under way; its camera is in the plan.")
                }
                defer { slot.free() }
                return try await checkCamera(options: options, arguments: arguments)
            })
        let server = try RemoteServing.server(
            listening: listen, option: "listen", arguments: arguments, simulated: simulated, remote: remote)
        RemoteServing.announce(server, json: false, output: context.output)
        // SIGINT and SIGTERM are serve's for its whole life (its shoots leave them alone): a signal stops the
        // shoot under way after the frame in flight, through its controller, and serve ends once it has.
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await server.run() }
            group.addTask {
                for await _ in SignalEvents.stream([.interrupt, .terminate]) {
                    eventSink.yield(.stop)
                    try? await remote.perform(.stop)
                }
            }
            for await event in events {
                guard case .shoot(let request) = event else { break }
                await shoot(request, serving: arguments, parent: parent, remote: remote, context: context)
                slot.free()
            }
            group.cancelAll()
        }
        return .success
    }

    /// The idle page's Check camera: ShootKit's `CameraTarget.check` (connect and check as a shoot would, then let
    /// the camera go) on the camera serve's shoots use, reached as they reach it (the SSH options, a replayed
    /// body); the terminal's part is which camera that is and the refusal's words.
    private static func checkCamera(
        options: ShootConsole.Options, arguments: ParsedArguments
    ) async throws(RemoteCommandRefusal) -> IdleCameraStatus {
        let environment = ProcessInfo.processInfo.environment
        let chosen: ChosenCamera
        do {
            chosen = try ChosenCamera.choose(
                given: options.target, or: .remembered(CameraAddressStore(environment: environment)),
                arguments: arguments, replay: options.replay,
                noCamera: UsageError("No camera given to serve (--camera) and none remembered."))
        } catch {
            // The page shows the refusal's sentence (no command-line hint).
            throw RemoteCommandRefusal(error.message)
        }
        do {
            let check = try await chosen.target.check(
                reach: chosen.reach(environment: environment), scene: options.scene)
            return IdleCameraStatus(camera: check.cameraUpdate, blockers: check.blockerSentences)
        } catch {
            throw RemoteCommandRefusal(CLIMessages().message(for: error))
        }
    }

    /// The page's Resume offer: ShootKit's `ResumeLookup.offered` (the newest unfinished single bracket whose
    /// folder is in `parent`; `id`: that one only), its folder named inside `parent`. A series is resumed with
    /// `hdrshoot resume`.
    private static func resumable(in parent: String, store: JournalStore, id: String?) async -> ResumableShoot? {
        let folderPrefix = parent.hasSuffix("/") ? parent : parent + "/"
        return await ResumeLookup.offered(in: parent, store: store, id: id).map {
            ResumableShoot(
                id: $0.id, folder: String($0.outputDirectory.dropFirst(folderPrefix.count)), saved: $0.savedCount,
                total: $0.plan.totalExposures)
        }
    }

    /// One shoot from the page: the typed request started as `run` (or `resume`) starts its own, with serve's
    /// options as the shoot options, a folder of its own in `parent`, on a new controller the page follows.
    private static func shoot(
        _ request: ShootRequest, serving arguments: ParsedArguments, parent: String,
        remote: ControllerRemote, context: CommandContext
    ) async {
        let controller = ShootController(messages: CLIMessages())
        let spec: CommandSpec
        if case .resume = request { spec = ResumeCommand.spec } else { spec = RunCommand.spec }
        // serve's own options (its run options) are every shoot's; the request says what this one starts.
        let accepted = Set(spec.options.map(\.name)).subtracting(["listen", "output", "token-file", "remote"])
        var shared = ParsedArguments(command: spec.name)
        for (name, value) in arguments.values where accepted.contains(name) { shared.set(name, to: value) }
        for flag in arguments.flags where accepted.contains(flag) { shared.set(flag: flag) }
        var request = request
        if case .bracket(var bracket) = request {
            bracket.output = parent + "/" + RunCommand.defaultOutputName(at: context.wallClock.now())
            request = .bracket(bracket)
        }
        var shootContext = context
        shootContext.shootController = controller
        shootContext.decidedByController = true
        // Each shoot from the page keeps a session log as `run` and `resume` do; the page reads the link's health
        // from it.
        _ = await SessionLogging.around(
            command: spec.name, arguments: [spec.name] + commandLine(shared) + commandLine(request), verbose: false,
            output: context.output,
            environment: ProcessInfo.processInfo.environment
        ) { logged in
            var loggedContext = CommandContext(output: logged)
            loggedContext.wallClock = shootContext.wallClock
            loggedContext.shootController = shootContext.shootController
            loggedContext.decidedByController = shootContext.decidedByController
            let writer = SessionLogging.current
            let log = writer.map { writer in SessionLogTail { writer.path } }
            return await withTaskGroup(of: Void.self) { group in
                group.addTask { await remote.follow(controller, log: log) }
                var status: Int32 = 0
                do {
                    status = try await request.start(arguments: shared, loggedContext).rawValue
                } catch {
                    let report = ErrorReport(error)
                    logged.writeError("error: \(report.message)\n")
                    controller.note(report.message)
                    status = 1
                }
                // A shoot refused before its controller was told (a bad reading) ends here for the page too.
                await controller.end()
                await group.waitForAll()
                return status
            }
        }
    }
}

extension ServeCommand {
    /// The options of `arguments` as a command line, for the session log's first line.
    fileprivate static func commandLine(_ arguments: ParsedArguments) -> [String] {
        arguments.values.sorted { $0.key < $1.key }.flatMap { ["--" + $0.key, $0.value] }
            + arguments.flags.sorted().map { "--" + $0 }
    }

    /// What the page asked for, as the command line that asks for the same, for the session log's first line
    /// (the shoot itself takes the typed request).
    fileprivate static func commandLine(_ request: ShootRequest) -> [String] {
        switch request {
        case .resume(let resume):
            return (resume.id.map { ["--id", $0] } ?? []) + (resume.confirm ? ["--confirm"] : [])
        case .bracket(let bracket), .series(let bracket, _):
            var line: [String] = []
            if let shadow = bracket.shadow, let highlight = bracket.highlight {
                line += ["--shadow", shadow.speed.label, "--highlight", highlight.speed.label]
            }
            if let frames = bracket.frames { line += ["--frames", String(frames)] }
            if let spacing = bracket.spacing { line += ["--ev", spacing.label] }
            if let output = bracket.output { line += ["--output", output] }
            return line + (bracket.confirm ? ["--confirm"] : [])
        }
    }
}

/// What the serve loop waits for.
private enum ServeEvent: Sendable {
    /// The page asked for a shoot.
    case shoot(ShootRequest)
    /// SIGINT or SIGTERM while idle.
    case stop
}

/// The one shoot `serve` runs at a time: taken when the page starts one, freed when it ends.
private final class ShootSlot: Sendable {
    private let taken = Mutex(false)

    /// Takes the slot; false when a shoot holds it.
    func take() -> Bool {
        taken.withLock { taken in
            defer { taken = true }
            return !taken
        }
    }

    /// Frees the slot.
    func free() { taken.withLock { $0 = false } }
}
