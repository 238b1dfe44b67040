import Exposure
import Foundation
import ShootKit
import Shooting

/// The one way a shoot command gets from a camera target to its first frame: connect and check the camera, match
/// the shoot to it, confirm, lock and journal, execute.
///
/// `run`, `resume`, `run --every` and the `resume` of a series go through `prepare(_:on:)`; what differs between
/// them (a fresh plan or a journal to continue, a single bracket or a series) is their `ShootStages`. The
/// pipeline owns what they share: the order, the `--json` summary line before the question, and the camera
/// disconnected when a step fails.
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
            // A bracket has finished the controller already; a series (not yet shot through it) ends it here.
            await controller.end()
            return code
        } catch {
            // Refused, declined or failed before (or while) shooting: the shoot is over for every watcher.
            await controller.end()
            throw error
        }
    }

    /// `prepare(_:on:)`, with `--remote` in `arguments` serving the controller to a phone while the shoot runs.
    func prepare<Stages: ShootStages & Sendable>(
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
        try await options.ssh.applied(to: target).withCamera(
            environment: environment, scene: options.scene, replay: options.replay, resuming: resuming,
            say: say ?? { _ in }
        ) { camera, address in
            // The order is the layer's; the terminal's parts are the lines, the JSON summary and the question.
            var lines: [String] = []
            return try await controller.prepare(
                camera, address: address, needing: stages.shutterNeeds,
                progress: { step in say?(ConnectText.line(step)) },
                connected: { await addressStore?.remember(address) },
                match: { check in
                    let (matched, summary) = try await stages.match(&check, in: self)
                    lines = summary.lines
                    return (matched, summary.update)
                },
                proposed: { update in if options.json { output.writeOut(ShootUpdate.summary(update).jsonLine) } },
                ask: { check, proposal in
                    try await ShootConsole.confirm(
                        lines, blockers: check.blockers, controller: proposal == nil ? nil : controller,
                        options: options, output: output)
                },
                record: { matched, check in try await stages.record(matched, camera: camera, check: check, in: self) },
                shoot: { recorded in try await stages.execute(recorded, in: self) })
        }
    }

    // MARK: - Target

    /// `--camera`, else the camera remembered from the last shoot; a usage error when there is neither.
    static func target(
        given: CameraTarget?, remembered store: CameraAddressStore, command: String
    ) throws(UsageError) -> CameraTarget {
        guard let target = given ?? store.loadTarget() else { throw noCamera(command: command) }
        return target
    }

    /// The refusal of a shoot command given no camera when none is remembered.
    static func noCamera(command: String) -> UsageError {
        UsageError(
            "no camera given and none remembered; pass --camera HOST[:PORT], or --camera simulator to try hdrshoot "
                + "without a camera", command: command)
    }

    /// `--camera`, else the camera `journal` was shot on; a usage error when its address is not usable.
    static func target(
        given: CameraTarget?, journal: ShootJournal, command: String
    ) throws(UsageError) -> CameraTarget {
        guard let target = given ?? CameraTarget(stored: journal.camera.address) else {
            throw UsageError(
                "the journal's camera address '\(journal.camera.address)' is not usable; pass --camera HOST[:PORT]",
                command: command)
        }
        return target
    }
}

/// What is shown before the question: the summary's lines and, with `--json`, its JSON object.
struct ShootSummary {
    /// The lines, in order (blockers are not among them: they are the error line that refuses).
    var lines: [String]
    /// What the controller proposes (with `--json`, the `summary` line on standard output); nil proposes nothing
    /// (a series asks on its own).
    var update: ShootUpdate.Summary? = nil
}

/// The steps of `ShootPreparation` that differ between kinds of shoot (a new bracket, a resumed one, a new series,
/// a resumed series), in the order the pipeline calls them.
protocol ShootStages {
    /// What matching found (the plan as the camera will shoot it), carried to the journal step.
    associatedtype Matched
    /// What the journal step made, carried to the shoot.
    associatedtype Recorded

    /// Matches the shoot to the connected camera: adds what stops it to `check.blockers` and returns the summary
    /// to confirm.
    func match(_ check: inout CameraCheck, in preparation: ShootPreparation) async throws -> (Matched, ShootSummary)

    /// Once the photographer agreed: makes the output folder and the journal and locks it (the lock is held until
    /// the shoot ends; nil when the command locked the journal before it was read).
    func record(
        _ matched: Matched, camera: any CommandCamera, check: CameraCheck, in preparation: ShootPreparation
    ) async throws -> (Recorded, JournalLock?)

    /// Shoots; returns the exit code.
    func execute(_ recorded: Recorded, in preparation: ShootPreparation) async throws -> ExitCode

    /// The span of speeds the plan uses (fastest ... slowest) when it is known before the camera is: a body that
    /// lists no shutter speeds is stepped only that far to find what it reaches. Nil: Sony's widest series.
    var shutterNeeds: ClosedRange<ShutterSpeed>? { get }
}

extension ShootStages {
    /// Not known before the camera: a body that lists no speeds is stepped across Sony's widest series.
    var shutterNeeds: ClosedRange<ShutterSpeed>? { nil }
}

extension ShootStages where Recorded == PreparedBracket {
    /// A single bracket: `ShootConsole` shoots it with progress and controls, through the controller.
    func execute(_ shoot: PreparedBracket, in preparation: ShootPreparation) async throws -> ExitCode {
        try await ShootConsole.execute(
            shoot, controller: preparation.controller, options: preparation.options, output: preparation.output)
    }
}
