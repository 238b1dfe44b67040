import UPnPDescription

/// What a camera's UPnP device description says about its Camera Remote API: its name, the API version,
/// and each service's ActionList_URL (`X_ScalarWebAPI_DeviceInfo` / `X_ScalarWebAPI_ServiceList`; the
/// reference p. 20 sends the client here to find the `camera` service).
///
/// Read with the one description scanner (`DescriptionScanner`, strict: malformed markup throws
/// `.deviceDescription`, never traps; at most `maximumBytes`, nesting at most `maximumDepth`).
package struct DeviceDescription: Sendable, Hashable {
    /// `friendlyName` (the body's name, `ILCE-6000` or a user-set one).
    package let friendlyName: String
    /// `modelName`, when present.
    package let modelName: String?
    /// `X_ScalarWebAPI_Version` (`1.0`).
    package let apiVersion: String?
    /// Service type (`camera`, `guide`, `accessControl`, `avContent`) to its ActionList_URL.
    package let actionListURLs: [String: String]

    /// The largest description accepted.
    package static let maximumBytes = DescriptionScanner.maximumBytes
    /// The deepest nesting accepted.
    package static let maximumDepth = DescriptionScanner.maximumDepth

    /// Parses a description; throws `.deviceDescription` when it is malformed or has no service list.
    package init(xml bytes: [UInt8]) throws(CameraRemoteAPIError) {
        guard bytes.count <= Self.maximumBytes else {
            throw .tooLarge(what: "device description", limit: Self.maximumBytes, announced: bytes.count)
        }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw .deviceDescription("not UTF-8") }
        let elements: [DescriptionScanner.Element]
        do {
            elements = try DescriptionScanner.elements(in: text, mode: .strict)
        } catch {
            throw .deviceDescription(error.description)
        }
        var friendlyName: String?
        var modelName: String?
        var apiVersion: String?
        var urls: [String: String] = [:]
        var serviceType: String?
        var serviceURL: String?
        var sawServiceList = false
        for element in elements {
            let parent = element.path.last
            switch element.name {
            case "friendlyName" where parent == "device": friendlyName = element.text
            case "modelName" where parent == "device": modelName = element.text
            case "X_ScalarWebAPI_Version": apiVersion = element.text
            case "X_ScalarWebAPI_ServiceType" where parent == "X_ScalarWebAPI_Service": serviceType = element.text
            case "X_ScalarWebAPI_ActionList_URL" where parent == "X_ScalarWebAPI_Service": serviceURL = element.text
            case "X_ScalarWebAPI_Service":
                // The element closed: both parts are needed.
                if let type = serviceType, let url = serviceURL, urls[type] == nil { urls[type] = url }
                serviceType = nil
                serviceURL = nil
            case "X_ScalarWebAPI_ServiceList": sawServiceList = true
            default: break
            }
        }
        guard sawServiceList else { throw .deviceDescription("no X_ScalarWebAPI_ServiceList") }
        self.friendlyName = friendlyName ?? ""
        self.modelName = modelName
        self.apiVersion = apiVersion
        self.actionListURLs = urls
    }

    /// The `camera` service's endpoint: its ActionList_URL plus `/camera` (p. 22); throws when absent.
    package func cameraEndpoint() throws(CameraRemoteAPIError) -> RemoteURL {
        guard let base = actionListURLs["camera"] else {
            throw .deviceDescription(
                "no 'camera' service (services: \(actionListURLs.keys.sorted().joined(separator: ", ")))")
        }
        let url = try RemoteURL(base)
        return url.with(path: url.path.hasSuffix("/") ? url.path + "camera" : url.path + "/camera")
    }
}
