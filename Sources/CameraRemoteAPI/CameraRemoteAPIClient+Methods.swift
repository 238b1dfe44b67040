import JSON

/// The application a body runs for the API (`getApplicationInfo`, p. 252).
package struct ApplicationInfo: Sendable, Hashable {
    /// `Smart Remote Control`, or the built-in app's name.
    package let name: String
    /// Its version (`2.1.4`): the API level a body speaks.
    package let version: String
}

/// How actTakePicture / awaitTakePicture ended.
package enum TakePictureOutcome: Sendable, Hashable {
    /// Captured; these are the postview URLs.
    case postview([String])
    /// 40403 "Still Capturing Not Finished": a long exposure still runs; call awaitTakePicture (p. 28).
    case stillCapturing
}

// MARK: - Typed methods

extension CameraRemoteAPIClient {
    /// `getVersions` (p. 253): the API versions the service speaks (`["1.0", "1.1"...]`).
    package func getVersions() async throws(CameraRemoteAPIError) -> [String] {
        try firstStrings(of: await call("getVersions"), method: "getVersions")
    }

    /// `getApplicationInfo`: the server application's name and version.
    package func getApplicationInfo() async throws(CameraRemoteAPIError) -> ApplicationInfo {
        let result = try await call("getApplicationInfo")
        guard result.count >= 2, let name = result[0].string, let version = result[1].string else {
            throw .malformedResponse(method: "getApplicationInfo", reason: "not [name, version]")
        }
        return ApplicationInfo(name: name, version: version)
    }

    /// `getAvailableApiList` (p. 251): the methods callable now (before startRecMode, on some bodies, only a few).
    package func getAvailableApiList() async throws(CameraRemoteAPIError) -> [String] {
        try firstStrings(of: await call("getAvailableApiList"), method: "getAvailableApiList")
    }

    /// `startRecMode` (p. 188): needed once by bodies that list it before any shooting call.
    package func startRecMode() async throws(CameraRemoteAPIError) {
        try expectZero(await call("startRecMode"), method: "startRecMode")
    }

    /// `getEvent` (p. 231): with `longPoll` the camera answers at the next change or its own timeout; a
    /// long poll waits on its own connection and at most one runs per client (`.longPollAlreadyRunning`).
    package func getEvent(longPoll: Bool, version: String = "1.0") async throws(CameraRemoteAPIError) -> CameraEvent {
        if longPoll {
            return try await asLongPoll { () async throws(CameraRemoteAPIError) -> CameraEvent in
                try CameraEvent(
                    result: await call("getEvent", [.bool(true)], version: version, timeout: longPollTimeout))
            }
        }
        return try CameraEvent(result: await call("getEvent", [.bool(false)], version: version))
    }

    /// `getAvailableShutterSpeed` (p. 106): `[current, [candidates]]`; candidates are empty outside M and S.
    package func getAvailableShutterSpeed() async throws(CameraRemoteAPIError) -> AvailableSetting {
        let result = try await call("getAvailableShutterSpeed")
        guard result.count >= 2, let current = result[0].string, let candidates = result[1].strings else {
            throw .malformedResponse(method: "getAvailableShutterSpeed", reason: "not [current, [candidates]]")
        }
        return AvailableSetting(current: current, candidates: candidates)
    }

    /// `setShutterSpeed` (p. 102) with one of the body's own labels. Success does not mean applied: the
    /// body may take a moment (p. 103); watch getEvent's shutterSpeed or read getShutterSpeed back.
    package func setShutterSpeed(_ label: String) async throws(CameraRemoteAPIError) {
        try expectZero(await call("setShutterSpeed", [.string(label)]), method: "setShutterSpeed")
    }

    /// `getShutterSpeed` (p. 104): the current label.
    package func getShutterSpeed() async throws(CameraRemoteAPIError) -> String {
        try firstString(of: await call("getShutterSpeed"), method: "getShutterSpeed")
    }

    /// `getExposureMode` (p. 84): `Manual`, `Shutter`, `Aperture`, `Program Auto`, `Intelligent Auto`...
    package func getExposureMode() async throws(CameraRemoteAPIError) -> String {
        try firstString(of: await call("getExposureMode"), method: "getExposureMode")
    }

    /// `getIsoSpeedRate` (p. 109): the current ISO label (`AUTO`, `100`...).
    package func getIsoSpeedRate() async throws(CameraRemoteAPIError) -> String {
        try firstString(of: await call("getIsoSpeedRate"), method: "getIsoSpeedRate")
    }

    /// `actTakePicture` (p. 27): releases and waits for the postview, or `.stillCapturing` for a long exposure.
    package func actTakePicture() async throws(CameraRemoteAPIError) -> TakePictureOutcome {
        try await takePicture("actTakePicture")
    }

    /// `awaitTakePicture` (p. 29): waits for the capture actTakePicture left running.
    package func awaitTakePicture() async throws(CameraRemoteAPIError) -> TakePictureOutcome {
        try await takePicture("awaitTakePicture")
    }

    /// `startBulbShooting`: opens the shutter in BULB until stopBulbShooting (not in the v2.10 reference;
    /// later API levels list it next to actTakePicture).
    package func startBulbShooting() async throws(CameraRemoteAPIError) {
        try expectZeroOrEmpty(await call("startBulbShooting"), method: "startBulbShooting")
    }

    /// `stopBulbShooting`: closes the shutter; the picture then appears in getEvent's takePicture.
    package func stopBulbShooting() async throws(CameraRemoteAPIError) {
        try expectZeroOrEmpty(await call("stopBulbShooting"), method: "stopBulbShooting")
    }

    /// `setPostviewImageSize` (p. 136): `"Original"` makes the postview the full-size JPEG, `"2M"` a preview.
    package func setPostviewImageSize(_ size: String = "Original") async throws(CameraRemoteAPIError) {
        try expectZero(await call("setPostviewImageSize", [.string(size)]), method: "setPostviewImageSize")
    }

    // MARK: - Result shapes

    private func takePicture(_ method: String) async throws(CameraRemoteAPIError) -> TakePictureOutcome {
        do {
            return .postview(try firstStrings(of: await call(method, timeout: captureTimeout), method: method))
        } catch let .api(code, _, _) where code == .captureNotFinished {
            return .stillCapturing
        }
    }

    private func firstStrings(of result: [JSONValue], method: String) throws(CameraRemoteAPIError) -> [String] {
        guard let first = result.first?.strings else {
            throw .malformedResponse(method: method, reason: "result is not [[strings]]")
        }
        return first
    }

    private func firstString(of result: [JSONValue], method: String) throws(CameraRemoteAPIError) -> String {
        guard let first = result.first?.string else {
            throw .malformedResponse(method: method, reason: "result is not [string]")
        }
        return first
    }

    private func expectZero(_ result: [JSONValue], method: String) throws(CameraRemoteAPIError) {
        guard result.count == 1, result[0].integer == 0 else {
            throw .malformedResponse(method: method, reason: "result is not [0]")
        }
    }

    /// Bodies answer the bulb calls with `[0]` or with an empty result; both mean done.
    private func expectZeroOrEmpty(_ result: [JSONValue], method: String) throws(CameraRemoteAPIError) {
        guard result.isEmpty || (result.count == 1 && result[0].integer == 0) else {
            throw .malformedResponse(method: method, reason: "result is neither [] nor [0]")
        }
    }
}
