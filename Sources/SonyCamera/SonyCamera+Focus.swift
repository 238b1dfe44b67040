import Exposure
import PTPIP
import Shooting
import SonyProtocol

/// How a shoot keeps one focus for every frame of a bracket (frames that refocus do not align).
enum FocusHandling: Sendable, Equatable {
    /// Not looked at yet (before the first frame of a shoot).
    case unchecked
    /// The body is in MF: nothing to do.
    case manual
    /// Focused once, then the body was switched to MF (0x500A); `original` is restored at the end.
    case heldInManual(original: SonyFocusMode)
    /// Focused once, then AF with shutter (0xD1AD) was turned off; `original` is restored at the end.
    case heldWithoutAFOnShutter(original: UInt8)
    /// Neither is settable (a physical AF/MF switch): every frame holds S1 until focused, and may differ.
    case everyFrame
}

extension SonyCamera {
    /// The focus mode as last reported (0x500A), for `hdrshoot camera`.
    package var focusMode: SonyFocusMode? { properties.focusMode }

    /// Before the first frame of a shoot: in an AF mode, focuses once (S1 down until 0xD213 says focused,
    /// bounded by `focusTimeout`; S1 up) and then holds that focus for the whole shoot by switching the body
    /// to MF where 0x500A is settable, else by turning AF with shutter (0xD1AD) off; where neither is, every
    /// frame focuses on its own (with a warning). Focus that does not lock throws `.focusFailed` before any
    /// frame fires. In MF nothing happens. Idempotent within a shoot, across reconnects.
    func prepareFocus() async throws {
        guard focusHandling == .unchecked else { return }
        guard let mode = properties.focusMode, mode.autofocuses else {
            focusHandling = .manual
            return
        }
        try await press(.s1Button, .down)
        let result: SonyFocusIndication
        do {
            result = try await awaitFocus()
        } catch {
            if isLinkUsable { try? await press(.s1Button, .up) }
            throw error
        }
        try await press(.s1Button, .up)
        guard result == .focused else { throw SonyCameraError.focusFailed(mode: mode.name, waited: result == .notFocused ? nil : configuration.focusTimeout) }

        if let focus = properties[.focusMode], focus.isSettable,
            let manual = PTPValue.integer(Int64(SonyFocusMode.manual.rawValue), as: focus.dataType), focus.allows(manual),
            try await setAndConfirm(.focusMode, to: manual, during: "switching the focus to MF (0x500A)")
        {
            focusHandling = .heldInManual(original: mode)
            note("focused once (\(mode.name)); the camera is in MF for the shoot and goes back to \(mode.name) at the end")
            return
        }
        if let shutterAF = properties[.afWithShutter], shutterAF.isSettable,
            let current = shutterAF.currentValue.integerValue.flatMap(UInt8.init(exactly:)),
            let off = PTPValue.integer(1, as: shutterAF.dataType), shutterAF.allows(off)
        {
            var isOff = current == 1
            if !isOff { isOff = try await setAndConfirm(.afWithShutter, to: off, during: "turning AF with shutter off (0xD1AD)") }
            if isOff {
                focusHandling = .heldWithoutAFOnShutter(original: current)
                note("focused once (\(mode.name)); AF with shutter is off for the shoot and comes back at the end")
                return
            }
        }
        focusHandling = .everyFrame
        note("the focus mode cannot be changed remotely (an AF/MF switch on the body or lens?): every frame focuses "
            + "on its own and the frames may not align; set the switch to MF after focusing for a bracket that merges")
    }

    /// Puts back what `prepareFocus` changed (best effort, on a usable link); the shoot is over.
    func restoreFocus() async {
        guard isLinkUsable else { return }
        switch focusHandling {
        case .heldInManual(let original):
            if let focus = properties[.focusMode], let value = PTPValue.integer(Int64(original.rawValue), as: focus.dataType) {
                _ = try? await setAndConfirm(.focusMode, to: value, during: "restoring the focus mode (0x500A)")
            }
        case .heldWithoutAFOnShutter(let original):
            if let shutterAF = properties[.afWithShutter], let value = PTPValue.integer(Int64(original), as: shutterAF.dataType) {
                _ = try? await setAndConfirm(.afWithShutter, to: value, during: "restoring AF with shutter (0xD1AD)")
            }
        case .unchecked, .manual, .everyFrame:
            break
        }
        focusHandling = .unchecked
    }

    /// With S1 held: reads 0xD213 until it says focused or not focused, for at most `focusTimeout`.
    func awaitFocus() async throws -> SonyFocusIndication {
        let watch = Stopwatch(clock: clock)
        var polls = PollBackoff(configuration.pollIntervals)
        while true {
            let generation = doorbell.generation
            try await refreshProperties(full: false)
            let indication = properties.currentValue(of: .focusIndication)?.integerValue
                .flatMap(UInt8.init(exactly:)).map(SonyFocusIndication.init(rawValue:))
            if let indication, indication == .focused || indication == .notFocused { return indication }
            let left = watch.remaining(of: configuration.focusTimeout)
            guard left > .zero else { return indication ?? .unlocked }
            _ = try await waitForPause(after: generation, timeout: min(left, .milliseconds(250)), polls: &polls)
        }
    }

    /// Sets `code` with 0x9205 and reads it back; true when the camera shows the value.
    func setAndConfirm(_ code: SonyPropertyCode, to value: PTPValue, during: String) async throws -> Bool {
        do {
            try await run(.sdioSetExtDevicePropValue, [UInt32(code.rawValue)], sending: value.encoded, during: during)
        } catch let error as SonyCameraError where !error.isConnectionLost {
            return false
        }
        let watch = Stopwatch(clock: clock)
        var polls = PollBackoff(configuration.pollIntervals)
        while true {
            let generation = doorbell.generation
            try await refreshProperties(full: false)
            if properties.currentValue(of: code) == value { return true }
            let left = watch.remaining(of: configuration.shutterConfirmTimeout)
            guard left > .zero else { return false }
            _ = try await waitForPause(after: generation, timeout: left, polls: &polls)
        }
    }
}
