import Exposure
import Foundation
import ShootKit
import Shooting

/// The terminal's side of a shoot's start: ShootKit's controller runs the steps (`ShootController.prepare`:
/// connect and check, match, propose, refuse what blocks, ask, record, shoot); this says "Connecting to …",
/// prints the summary (and, with `--json`, its JSON object), answers the question from the terminal, and hands the
/// recorded shoot to the command's terminal client.
///
/// `run`, `resume`, `run --every` and the `resume` of a series differ only in their `ShootStages`: a ShootKit
/// `ShootStart` and the text and client around it.
struct ShootPreparation {
    /// The shared shoot options.
    var options: ShootConsole.Options
    /// Where the command prints.
    var output: any OutputStreams
    /// The process environment (the connect backoff of the tests).
    var environment: [String: String]
    /// Where "Connecting to …", its retries and a probed protocol are said; nil says nothing (a series prints its
    /// summary only).
    var say: (@Sendable (String) -> Void)?
    /// Whether the shoot continues a journal (a legacy body may hand over a picture an earlier run left in it).
    var resuming = false
    /// Where the address of a camera that answered is remembered (`run`); nil leaves it (`resume` has its journal).
    var addressStore: CameraAddressStore?
    /// The shoot's owner: it holds the state (connecting, proposed, shooting, finished), takes the answer to the
    /// question and publishes every update the terminal renders.
    var controller = ShootController(messages: CLIMessages())

    /// Prepares and shoots `stages` on the camera of `target`; returns the shoot's exit code. A step that throws
    /// ends the shoot with the camera disconnected (`ErrorReport` gives the error its line and code).
    func prepare<Stages: ShootStages>(_ stages: Stages, on target: CameraTarget) async throws -> ExitCode {
        await controller.connecting()
        do {
            let code = try await connectAndShoot(stages, on: target)
            // A bracket has finished the controller already; a series ends it here.
            await controller.end()
            return code
        } catch {
            // Refused, declined or failed before (or while) shooting: the shoot is over for every watcher.
            await controller.end()
            throw error
        }
    }

    /// `prepare(_:on:)`, with `--remote` in `arguments` serving the controller to a phone while the shoot runs.
    func prepare<Stages: ShootStages>(
        _ stages: Stages, on target: CameraTarget, remote arguments: ParsedArguments
    ) async throws -> ExitCode {
        guard let remote = arguments.string("remote") else { return try await prepare(stages, on: target) }
        var simulated = false
        if case .simulator = target { simulated = true }
        return try await RemoteServing.serving(
            remote, arguments: arguments, simulated: simulated, json: options.json, controller: controller,
            output: output
        ) {
            try await prepare(stages, on: target)
        }
    }

    private func connectAndShoot<Stages: ShootStages>(
        _ stages: Stages, on target: CameraTarget
    ) async throws -> ExitCode {
        // From the target to the shoot's end the steps are the controller's; the terminal reaches the camera with
        // this process's settings, says each line, prints the summary and answers the question.
        let say = self.say ?? { _ in }
        return try await controller.prepare(
            stages.start, on: options.ssh.applied(to: target),
            reach: TerminalCameraReach(environment: environment, replay: options.replay, say: say),
            scene: options.scene, resuming: resuming, note: { say(ConnectionText.sentence($0)) },
            progress: { say(ConnectText.line($0)) },
            connected: { address in await addressStore?.remember(address) },
            present: { matched, check, proposal in
                if let proposal, options.json { output.writeOut(ShootUpdate.summary(proposal).jsonLine) }
                // With --json the summary is already a JSON line; people read it on standard error.
                let text = try stages.lines(matched, check: check).map { $0 + "\n" }.joined()
                if options.json { output.writeError(text) } else { output.writeOut(text) }
            },
            ask: { proposal in
                try await ShootConsole.answer(proposal, controller: controller, options: options, output: output)
            },
            shoot: { recorded in try await stages.execute(recorded, in: self) })
    }

    // MARK: - Target

    /// `--camera`, else the camera remembered from the last shoot, the SSH options applied (`ChosenCamera`); a
    /// usage error when there is neither.
    static func target(
        options: ShootConsole.Options, remembered store: CameraAddressStore, arguments: ParsedArguments
    ) throws(UsageError) -> CameraTarget {
        try ChosenCamera.choose(
            given: options.target, or: .remembered(store), arguments: arguments, replay: options.replay,
            noCamera: noCamera(command: arguments.command)
        ).target
    }

    /// The refusal of a shoot command given no camera when none is remembered.
    static func noCamera(command: String) -> UsageError {
        UsageError(
            "no camera given and none remembered; pass --camera HOST[:PORT], or --camera simulator to try hdrshoot "
                + "without a camera", command: command)
    }

    /// `--camera`, else the camera `journal` was shot on (`ChosenCamera`); a usage error when its address is not
    /// usable.
    static func target(
        options: ShootConsole.Options, journal: ShootJournal, arguments: ParsedArguments
    ) throws(UsageError) -> CameraTarget {
        try ChosenCamera.choose(
            given: options.target, or: .journal(journal), arguments: arguments, replay: options.replay,
            noCamera: noCamera(command: arguments.command)
        ).target
    }
}

/// A command's start as the terminal sees it: ShootKit's `ShootStart` (match and record), the summary's lines,
/// and the terminal client that shoots what was recorded.
protocol ShootStages: Sendable {
    /// The layer's start.
    associatedtype Start: ShootStart

    /// The layer's start: what the controller matches and records.
    var start: Start { get }

    /// The summary's lines, in order (blockers are not among them: they are the error line that refuses).
    func lines(_ matched: Start.Matched, check: CameraCheck) throws -> [String]

    /// Shoots what was recorded; returns the exit code.
    func execute(_ recorded: Start.Recorded, in preparation: ShootPreparation) async throws -> ExitCode
}

extension ShootStages where Start.Recorded == PreparedBracket {
    /// A single bracket: `ShootConsole` shoots it with progress and controls, through the controller.
    func execute(_ shoot: PreparedBracket, in preparation: ShootPreparation) async throws -> ExitCode {
        try await ShootConsole.execute(
            shoot, controller: preparation.controller, options: preparation.options, output: preparation.output)
    }
}
