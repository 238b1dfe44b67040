import CameraSimulator
import ShootKit
import Shooting

/// Which camera a command reaches, chosen in this one place for every command that reaches one (`camera`, `run`,
/// `run --auto`, `run --every`, `resume`, `meter`, `serve`'s Check camera): `--camera` (with the SSH options),
/// else the camera the command falls back on (the remembered one of any kind, or the journal's for `resume`) with
/// the same SSH options applied, and the replayed body of `--replay-session` where the command takes it. `meter`
/// and `run --auto` therefore meter the camera `run` shoots, reached the same way.
struct ChosenCamera: Sendable {
    /// The camera, the SSH options applied.
    var target: CameraTarget
    /// `--replay-session LOG`: the body the built-in simulator becomes (only with `--camera simulator`).
    var replay: SessionReplay?

    /// Where a command without `--camera` finds its camera.
    enum Fallback {
        /// The camera remembered from the last command that reached one (`~/.config/hdrshoot/last-camera`).
        case remembered(CameraAddressStore)
        /// The camera the journal's shoot was shot on (`resume`).
        case journal(ShootJournal)
    }

    /// `--camera` parsed (`api`: `--api`) with the SSH options of `arguments` applied; nil without `--camera`.
    static func given(_ arguments: ParsedArguments, api: Bool = false) throws(UsageError) -> CameraTarget? {
        try SSHConnection.apply(
            to: try arguments.string("camera").map { text throws(UsageError) in
                try CameraTarget(parsing: text, command: arguments.command, api: api)
            }, arguments: arguments)
    }

    /// The camera of `arguments`: `given` (`--camera` as `given(_:api:)` made it), else `fallback`'s with the SSH
    /// options applied as to `--camera` (`--no-ssh` makes a remembered camera behind SSH plain PTP/IP again; the
    /// password file, user and fingerprint reach one behind SSH); `noCamera` when there is neither.
    static func choose(
        given: CameraTarget?, or fallback: Fallback, arguments: ParsedArguments, replay: SessionReplay? = nil,
        noCamera: @autoclosure () -> UsageError
    ) throws(UsageError) -> ChosenCamera {
        if let given { return ChosenCamera(target: given, replay: replay) }
        switch fallback {
        case .remembered(let store):
            guard let remembered = try SSHConnection.apply(to: store.loadTarget(), arguments: arguments) else {
                throw noCamera()
            }
            return ChosenCamera(target: remembered, replay: replay)
        case .journal(let journal):
            guard let journaled = CameraTarget(stored: journal.camera.address) else {
                throw UsageError(
                    "the journal's camera address '\(journal.camera.address)' is not usable; pass --camera HOST[:PORT]",
                    command: arguments.command)
            }
            // The journal's way in is kept (`--camera` changes it); the SSH options reach a camera behind SSH.
            return ChosenCamera(
                target: SSHConnection.Overrides(arguments).applied(to: journaled), replay: replay)
        }
    }

    /// How this process reaches the camera: its environment's camera settings, the replayed body, `say` hearing
    /// the pairing lines.
    func reach(
        environment: [String: String], say: @escaping @Sendable (String) -> Void = { _ in }
    )
        -> TerminalCameraReach
    {
        TerminalCameraReach(environment: environment, replay: replay, say: say)
    }
}
