import Exposure
import Foundation
import PTPIP
import Posix
import Shooting
import SonyProtocol
import Timing

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

    /// Whether a focus found once can be held over the link (0x500A or 0xD1AD settable); nil when the body
    /// reports no focus mode.
    package var focusSettable: Bool? {
        guard properties.focusMode != nil else { return nil }
        return properties[.focusMode]?.isSettable == true || properties[.afWithShutter]?.isSettable == true
    }

    /// Before the first frame of a shoot: in an AF mode, focuses once (S1 down until 0xD213 says focused,
    /// bounded by `focusTimeout`; S1 up) and then holds that focus for the whole shoot by switching the body
    /// to MF where 0x500A is settable, else by turning AF with shutter (0xD1AD) off; where neither is, every
    /// frame focuses on its own (with a warning). Focus that does not lock throws `.focusFailed` before any
    /// frame fires. In MF nothing happens. Idempotent within a shoot, across reconnects.
    func prepareFocus() async throws {
        guard focusHandling == .unchecked else { return }
        if adoptInterruptedFocusChange() { return }
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
        guard result == .focused else {
            throw SonyCameraError.focusFailed(
                mode: mode.name, waited: result == .notFocused ? nil : configuration.focusTimeout)
        }

        if let focus = properties[.focusMode], focus.isSettable,
            let manual = PTPValue.integer(Int64(SonyFocusMode.manual.rawValue), as: focus.dataType),
            focus.allows(manual)
        {
            saveFocusRecord(FocusRecord(code: SonyPropertyCode.focusMode.rawValue, value: mode.rawValue))
            if try await setAndConfirm(.focusMode, to: manual, during: "switching the focus to MF (0x500A)") {
                focusHandling = .heldInManual(original: mode)
                note(
                    "focused once (\(mode.name)); the camera is in MF for the shoot and goes back to \(mode.name) at the end"
                )
                return
            }
            removeFocusRecord()
        }
        if let shutterAF = properties[.afWithShutter], shutterAF.isSettable,
            let current = shutterAF.currentValue.integerValue.flatMap(UInt8.init(exactly:)),
            let off = PTPValue.integer(1, as: shutterAF.dataType), shutterAF.allows(off)
        {
            var isOff = current == 1
            if !isOff {
                saveFocusRecord(FocusRecord(code: SonyPropertyCode.afWithShutter.rawValue, value: UInt16(current)))
                isOff = try await setAndConfirm(.afWithShutter, to: off, during: "turning AF with shutter off (0xD1AD)")
                if !isOff { removeFocusRecord() }
            }
            if isOff {
                focusHandling = .heldWithoutAFOnShutter(original: current)
                note("focused once (\(mode.name)); AF with shutter is off for the shoot and comes back at the end")
                return
            }
        }
        focusHandling = .everyFrame
        note(
            "the focus mode cannot be changed remotely (an AF/MF switch on the body or lens?): every frame focuses "
                + "on its own and the frames may not align; set the switch to MF after focusing for a bracket that merges"
        )
    }

    /// Puts back what `prepareFocus` changed (best effort, on a usable link); the shoot is over. The record on
    /// disk goes once the body shows the original value again.
    func restoreFocus() async {
        guard isLinkUsable else { return }
        var restored = false
        switch focusHandling {
        case .heldInManual(let original):
            if let focus = properties[.focusMode],
                let value = PTPValue.integer(Int64(original.rawValue), as: focus.dataType)
            {
                restored =
                    (try? await setAndConfirm(.focusMode, to: value, during: "restoring the focus mode (0x500A)"))
                    == true
            }
        case .heldWithoutAFOnShutter(let original):
            if let shutterAF = properties[.afWithShutter],
                let value = PTPValue.integer(Int64(original), as: shutterAF.dataType)
            {
                restored =
                    (try? await setAndConfirm(.afWithShutter, to: value, during: "restoring AF with shutter (0xD1AD)"))
                    == true
            }
        case .unchecked, .manual, .everyFrame:
            break
        }
        if restored { removeFocusRecord() }
        focusHandling = .unchecked
    }

    // MARK: - What a shoot changed, kept until it is put back

    /// A focus setting a shoot changed: the property and the value to put back.
    struct FocusRecord: Equatable {
        /// 0x500A or 0xD1AD.
        let code: UInt16
        /// The value before the shoot changed it.
        let value: UInt16
    }

    /// The file of this body's record (by serial number, else model), when records are kept.
    private var focusRecordURL: URL? {
        guard let directory = configuration.focusRecordDirectory, let device = deviceInfo else { return nil }
        let key = (device.serialNumber.isEmpty ? device.model : device.serialNumber)
            .unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) || $0 == "-" }
        return directory.appendingPathComponent("focus-restore-" + String(String.UnicodeScalarView(key)))
    }

    /// Writes the record before the body is changed (best effort: without it, only a resume after a crash
    /// cannot put the focus back).
    private func saveFocusRecord(_ record: FocusRecord) {
        guard let url = focusRecordURL else { return }
        let text =
            String(record.code, radix: 16, uppercase: true) + "=" + String(record.value, radix: 16, uppercase: true)
            + "\n"
        // Durable before the body changes: a resume after a power cut reads it to put the focus back.
        try? FileSystem.replace(url.path, with: Array(text.utf8), creatingFolder: true)
    }

    /// Deletes the record once the setting is back.
    private func removeFocusRecord() {
        guard let url = focusRecordURL else { return }
        try? FileSystem.unlink(url.path)
    }

    /// A shoot that died after switching the body left its record: when the body still shows that change, the
    /// new shoot keeps it (the focus is the interrupted shoot's) and puts the original back at its end. A body
    /// someone changed since gets its record deleted.
    private func adoptInterruptedFocusChange() -> Bool {
        guard let url = focusRecordURL, let text = try? String(contentsOf: url, encoding: .utf8) else { return false }
        let parts = text.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "=")
        guard parts.count == 2, let code = UInt16(parts[0], radix: 16), let value = UInt16(parts[1], radix: 16) else {
            removeFocusRecord()
            return false
        }
        if code == SonyPropertyCode.focusMode.rawValue, properties.focusMode == .manual {
            let original = SonyFocusMode(rawValue: value)
            focusHandling = .heldInManual(original: original)
            note(
                "the camera is still in MF from the interrupted shoot (same focus); it goes back to \(original.name) at the end"
            )
            return true
        }
        if code == SonyPropertyCode.afWithShutter.rawValue,
            properties.currentValue(of: .afWithShutter)?.integerValue == 1, let original = UInt8(exactly: value)
        {
            focusHandling = .heldWithoutAFOnShutter(original: original)
            note("AF with shutter is still off from the interrupted shoot (same focus); it comes back at the end")
            return true
        }
        removeFocusRecord()
        return false
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
