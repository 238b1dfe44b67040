import JSON

/// A camera status as getEvent reports it (`"cameraStatus"`, reference p. 231 and "Event parameters").
package struct CameraStatus: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The text as sent.
    package let rawValue: String

    /// Wraps any status text.
    package init(rawValue: String) { self.rawValue = rawValue }

    /// Ready for the next call.
    package static let idle = Self(rawValue: "IDLE")
    /// Exposing (p. 27: IDLE -> StillCapturing -> StillSaving -> IDLE).
    package static let stillCapturing = Self(rawValue: "StillCapturing")
    /// Writing the picture to the card.
    package static let stillSaving = Self(rawValue: "StillSaving")
    /// Not ready (for example before startRecMode).
    package static let notReady = Self(rawValue: "NotReady")
    /// In an error state.
    package static let error = Self(rawValue: "Error")

    package var description: String { rawValue }
}

/// A setting's current value and what may be chosen now (`getAvailableShutterSpeed`, getEvent's objects).
package struct AvailableSetting: Sendable, Hashable {
    /// The current value, as the body writes it.
    package let current: String
    /// What may be set now; empty when the setting cannot be changed (outside M and S for the shutter).
    package let candidates: [String]

    /// Creates a setting.
    package init(current: String, candidates: [String]) {
        self.current = current
        self.candidates = candidates
    }
}

/// What one getEvent answer says (v1.0 layout, pp. 231-237), read by each object's `"type"` rather than by
/// position, so the v1.1-v1.3 layouts (which insert elements) read the same. Absent objects are nil:
/// getEvent without the long-poll flag reports everything, a long poll only what changed.
package struct CameraEvent: Sendable, Hashable {
    /// `availableApiList`: the methods callable now.
    package var availableAPIs: [String]?
    /// `cameraStatus`.
    package var cameraStatus: CameraStatus?
    /// `takePicture`: postview URLs of pictures taken (by the API or on the body).
    package var takePictureURLs: [String] = []
    /// `shutterSpeed`: current and candidates.
    package var shutterSpeed: AvailableSetting?
    /// `exposureMode`: current (`Manual`, `Shutter`, `Aperture`, `Program Auto`...) and candidates.
    package var exposureMode: AvailableSetting?
    /// `isoSpeedRate`.
    package var isoSpeedRate: AvailableSetting?
    /// `postviewImageSize`.
    package var postviewImageSize: AvailableSetting?

    /// An event with nothing in it.
    package init() {}

    /// Reads getEvent's result array; elements that are not the objects above are skipped, and a known
    /// object with the wrong shape throws `.malformedResponse`.
    package init(result: [JSONValue]) throws(CameraRemoteAPIError) {
        for element in result {
            // Most positions hold one object; some (takePicture, storageInformation) an array of them.
            let objects = element.array?.compactMap(\.object) ?? element.object.map { [$0] } ?? []
            for object in objects { try read(object) }
        }
    }

    private mutating func read(_ object: JSONObject) throws(CameraRemoteAPIError) {
        func strings(_ key: String) throws(CameraRemoteAPIError) -> [String] {
            guard let value = object[key]?.strings else {
                throw .malformedResponse(method: "getEvent", reason: "\(key) is not a string array")
            }
            return value
        }
        func setting(_ name: String) throws(CameraRemoteAPIError) -> AvailableSetting {
            let capitalized = name.prefix(1).uppercased() + name.dropFirst()
            guard let current = object["current\(capitalized)"]?.string else {
                throw .malformedResponse(method: "getEvent", reason: "\(name) has no current\(capitalized)")
            }
            let candidates = object["\(name)Candidates"] == nil ? [] : try strings("\(name)Candidates")
            return AvailableSetting(current: current, candidates: candidates)
        }
        switch object["type"]?.string {
        case "availableApiList": availableAPIs = try strings("names")
        case "cameraStatus":
            guard let status = object["cameraStatus"]?.string else {
                throw .malformedResponse(method: "getEvent", reason: "cameraStatus is not a string")
            }
            cameraStatus = CameraStatus(rawValue: status)
        case "takePicture": takePictureURLs += try strings("takePictureUrl")
        case "shutterSpeed": shutterSpeed = try setting("shutterSpeed")
        case "exposureMode": exposureMode = try setting("exposureMode")
        case "isoSpeedRate": isoSpeedRate = try setting("isoSpeedRate")
        case "postviewImageSize": postviewImageSize = try setting("postviewImageSize")
        default: break
        }
    }

    /// The answer's elements in the v1.0 layout (the simulator's side): index 0 availableApiList,
    /// 1 cameraStatus, 5 takePicture, 18 exposureMode, 19 postviewImageSize, 29 isoSpeedRate, 32 shutterSpeed.
    package var result: [JSONValue] {
        var elements = [JSONValue](repeating: .null, count: 33)
        if let availableAPIs {
            elements[0] = .object([
                "type": .string("availableApiList"), "names": .array(availableAPIs.map(JSONValue.string))
            ])
        }
        if let cameraStatus {
            elements[1] = .object(["type": .string("cameraStatus"), "cameraStatus": .string(cameraStatus.rawValue)])
        }
        if !takePictureURLs.isEmpty {
            elements[5] = .array([
                .object([
                    "type": .string("takePicture"), "takePictureUrl": .array(takePictureURLs.map(JSONValue.string))
                ])
            ])
        }
        for (index, name, setting) in [
            (18, "exposureMode", exposureMode), (19, "postviewImageSize", postviewImageSize),
            (29, "isoSpeedRate", isoSpeedRate), (32, "shutterSpeed", shutterSpeed)
        ] {
            guard let setting else { continue }
            let capitalized = name.prefix(1).uppercased() + name.dropFirst()
            elements[index] = .object([
                "type": .string(name), "current\(capitalized)": .string(setting.current),
                "\(name)Candidates": .array(setting.candidates.map(JSONValue.string))
            ])
        }
        return elements
    }
}
