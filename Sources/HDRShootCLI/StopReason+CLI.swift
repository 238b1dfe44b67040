import Shooting

extension StopReason: CLIReportable {
    /// One line per case: 75 whatever stopped a shoot that `hdrshoot resume` can continue (the photographer, an
    /// abandoned frame, a reconnect that gave up, a camera fault), 1 when the journal could not be written, 70 when
    /// the cause is a bug in hdrshoot. A camera that cannot shoot and captured nothing this run exits 69 instead:
    /// that depends on the run, so `ErrorReport.exitCode(for:)` decides it.
    package var exitCode: ExitCode {
        switch self {
        case .stopRequested: .transientFailure
        case .cancelled: .transientFailure
        case .reconnectGaveUp: .transientFailure
        case .recordingFailed: .failure
        case .failed(let error): ErrorReport(error).exitCode == .internalError ? .internalError : .transientFailure
        }
    }

    /// Why the shoot stopped, in one line (a reconnect that gave up without its time limit).
    package var cliMessage: String { message(reconnectTimeout: nil) }

    /// Why the shoot stopped, in one line; `reconnectTimeout` is the `--reconnect-timeout` a reconnect gave up in.
    func message(reconnectTimeout: Duration?) -> String {
        switch self {
        case .stopRequested:
            return "stopped on request"
        case .cancelled:
            return "the frame in flight was abandoned; `hdrshoot resume` shoots it again"
        case .failed(let error):
            return HDRShoot.message(for: error)
        case let .reconnectGaveUp(attempts, lastError):
            // The cause alone: the connect error's own "(last: …)" and advice would nest inside this line.
            let last = lastError.map { " (last: \(ConnectText.cause($0)))" } ?? ""
            let within = reconnectTimeout.map { " within \(ShootText.duration($0))" } ?? ""
            return
                "lost the camera and could not reconnect\(within) after \(PlanReport.counted(attempts, "attempt"))\(last); "
                + "check that the camera is on and in 'Ctrl w/ Smartphone'; `hdrshoot resume` will continue once the "
                + "camera is back"
        case .recordingFailed(let error):
            return HDRShoot.message(for: error)
        }
    }

    /// What the end of a shoot prints on standard error for this reason: nothing for a stop the photographer asked
    /// for (the end line says it), a note when a frame in flight was abandoned (`frameInFlight`: the stop came
    /// during a bracket, not between a series' repetitions), an `error: …` line otherwise.
    func stopLine(reconnectTimeout: Duration, frameInFlight: Bool) -> String? {
        switch self {
        case .stopRequested: nil
        case .cancelled: frameInFlight ? "The frame in flight was abandoned; `hdrshoot resume` shoots it again." : nil
        case .failed, .reconnectGaveUp, .recordingFailed: "error: " + message(reconnectTimeout: reconnectTimeout)
        }
    }
}

extension ShootJournal.StopKind {
    /// Why a stored shoot stopped, as `hdrshoot status` says it (`stopped (you stopped it)`).
    var statusText: String {
        switch self {
        case .stopRequested: "you stopped it"
        case .cancelled: "the frame in flight was abandoned"
        case .failed: "the camera or a frame failed"
        case .reconnectGaveUp: "the camera could not be reconnected"
        case .recordingFailed: "the journal could not be written"
        }
    }
}
