import Exposure
import ShootKit

/// What the page (or a script) asks `POST /api/shoot` for, typed where it enters: readings as stops of the
/// shoot's scale, a frame count in the planner's range, a spacing the planner accepts. A form that is not one
/// of these is refused at once with 400 and its sentence, before any camera is touched.
package enum RemoteShootRequest: Sendable, Equatable {
    /// Plan a new bracket.
    case bracket(BracketRequest)
    /// Continue an unfinished shoot (`id` nil: the one offered); `confirm` skips the proposed state.
    case resume(id: String?, confirm: Bool)
}

/// A new bracket from the page's form.
package struct BracketRequest: Sendable, Equatable {
    /// The shadow reading, a stop of the scale (`typed` keeps what was sent).
    package var shadow: ParsedSpeed
    /// The highlight reading.
    package var highlight: ParsedSpeed
    /// Frames per set (nil: the shoot's default).
    package var frames: Int?
    /// The spacing between frames (nil: the shoot's default).
    package var spacing: EVAmount?
    /// Shoot without waiting in the proposed state.
    package var confirm: Bool

    /// Creates a request.
    package init(
        shadow: ParsedSpeed, highlight: ParsedSpeed, frames: Int? = nil, spacing: EVAmount? = nil,
        confirm: Bool = false
    ) {
        self.shadow = shadow
        self.highlight = highlight
        self.frames = frames
        self.spacing = spacing
        self.confirm = confirm
    }
}

extension ShootForm {
    /// The typed request of this form on `scale`; a refusal with status 400 and the sentence `messages` gives
    /// the error (the terminal's own) when a field is not what the planner takes.
    package func request(
        scale: ShutterScale, messages: any ShootMessages
    ) throws(RemoteCommandRefusal) -> RemoteShootRequest {
        if resume == true { return .resume(id: id, confirm: confirm == true) }
        guard let shadow, let highlight else {
            throw RemoteCommandRefusal("Give Shadow and Highlight readings (for example 1/4 and 1/1000).", status: 400)
        }
        func typed<T>(_ parse: () throws(ExposureError) -> T) throws(RemoteCommandRefusal) -> T {
            do { return try parse() } catch { throw RemoteCommandRefusal(messages.message(for: error), status: 400) }
        }
        let shadowSpeed = try typed { () throws(ExposureError) in try scale.parseSpeed(shadow) }
        let highlightSpeed = try typed { () throws(ExposureError) in try scale.parseSpeed(highlight) }
        if let frames, !BracketPlanner.frameRange.contains(frames) {
            throw RemoteCommandRefusal(
                messages.message(for: ExposureError.frameCountOutOfRange(frames, allowed: BracketPlanner.frameRange)),
                status: 400)
        }
        let spacing = try ev.map { ev throws(RemoteCommandRefusal) in
            try typed { () throws(ExposureError) in try EVAmount.spacing(parsing: "\(ev)") }
        }
        return .bracket(
            BracketRequest(
                shadow: shadowSpeed, highlight: highlightSpeed, frames: frames, spacing: spacing,
                confirm: confirm == true))
    }
}
