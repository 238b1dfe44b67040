import Exposure
import ShootKit

extension ShootForm {
    /// The typed start of this form on `scale` (the application layer's request, as `run` and `resume` build it
    /// from their options): readings as stops of the scale, a frame count in the planner's range, a spacing the
    /// planner accepts. A form that is not one of these is refused at once with 400 and the sentence `messages`
    /// gives the error (the terminal's own), before any camera is touched. The output folder is serve's to choose.
    package func request(
        scale: ShutterScale, messages: any ShootMessages
    ) throws(RemoteCommandRefusal) -> ShootRequest {
        if resume == true { return .resume(ResumeRequest(id: id, confirm: confirm == true)) }
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
                readings: .given(shadow: shadowSpeed, highlight: highlightSpeed), frames: frames, spacing: spacing,
                confirm: confirm == true))
    }
}
