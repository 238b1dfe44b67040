import Exposure
import Shooting

/// What differs between the ways a shoot starts (a new bracket, a resumed one, a new series, a resumed series):
/// how the shoot is matched to the connected body and what the photographer's yes records. The order the steps
/// run in is the controller's (`ShootController.prepare(_:camera:address:...)`); a front end only renders the
/// proposal and answers it.
package protocol ShootStart: Sendable {
    /// What matching found (the plan as the camera will shoot it), carried to the journal step and shown.
    associatedtype Matched
    /// What the journal step made, carried to the shoot.
    associatedtype Recorded

    /// The span of speeds the plan uses (fastest ... slowest) when it is known before the camera is: a body that
    /// lists no shutter speeds is stepped only that far to find what it reaches. Nil: Sony's widest series.
    var shutterNeeds: ClosedRange<ShutterSpeed>? { get }

    /// Matches the shoot to the connected camera: adds what stops it to `check.blockers` (a plan that cannot be
    /// matched at all throws `ShootPreparationError.blocked`, its sentence from `messages`).
    func match(_ check: inout CameraCheck, messages: any ShootMessages) throws -> Matched

    /// What the controller proposes for `matched` (nil: nothing is proposed, the front end asks on its own).
    func proposal(of matched: Matched, check: CameraCheck) -> ShootUpdate.Summary?

    /// Once the photographer agreed: makes the output folder and the journal and locks it (the lock is held until
    /// the shoot ends; nil when the journal was locked before it was read).
    func record(
        _ matched: Matched, camera: any CommandCamera, check: CameraCheck
    ) async throws -> (Recorded, JournalLock?)
}

extension ShootStart {
    /// Not known before the camera: a body that lists no speeds is stepped across Sony's widest series.
    package var shutterNeeds: ClosedRange<ShutterSpeed>? { nil }

    /// Proposes nothing.
    package func proposal(of matched: Matched, check: CameraCheck) -> ShootUpdate.Summary? { nil }
}

/// How a front end makes a shoot's output folder: it creates the path (and its parents) and returns whether it
/// was made now; when it cannot, it throws an error that says what is wrong with the path.
package typealias OutputFolderMaker = @Sendable (String) throws -> Bool
