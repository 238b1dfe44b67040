/// What a camera's UPnP device description says about its Camera Remote API: its name, the API version,
/// and each service's ActionList_URL (`X_ScalarWebAPI_DeviceInfo` / `X_ScalarWebAPI_ServiceList`; the
/// reference p. 20 sends the client here to find the `camera` service).
///
/// Parsed with a small bounded scanner (elements matched by local name, so any namespace prefix works),
/// not a general XML parser: the document is at most `maximumBytes`, nesting at most `maximumDepth`, and
/// malformed markup throws `.deviceDescription`, never traps.
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
    package static let maximumBytes = 64 * 1024
    /// The deepest nesting accepted.
    package static let maximumDepth = 32

    /// Parses a description; throws `.deviceDescription` when it is malformed or has no service list.
    package init(xml bytes: [UInt8]) throws(CameraRemoteAPIError) {
        guard bytes.count <= Self.maximumBytes else {
            throw .tooLarge(what: "device description", limit: Self.maximumBytes, announced: bytes.count)
        }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw .deviceDescription("not UTF-8") }
        var scanner = Scanner(text: Array(text.unicodeScalars))
        var friendlyName: String?
        var modelName: String?
        var apiVersion: String?
        var urls: [String: String] = [:]
        var serviceType: String?
        var serviceURL: String?
        var sawServiceList = false
        try scanner.scan { path, name, value throws(CameraRemoteAPIError) in
            switch name {
            case "friendlyName" where path.last == "device": friendlyName = value
            case "modelName" where path.last == "device": modelName = value
            case "X_ScalarWebAPI_Version": apiVersion = value
            case "X_ScalarWebAPI_ServiceType" where path.last == "X_ScalarWebAPI_Service": serviceType = value
            case "X_ScalarWebAPI_ActionList_URL" where path.last == "X_ScalarWebAPI_Service": serviceURL = value
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

/// Walks elements, calling back with the open-element path, the local name and the trimmed text of each
/// element when it closes (text of elements with children is whatever text they hold directly).
private struct Scanner {
    let text: [Unicode.Scalar]
    var index = 0

    init(text: [Unicode.Scalar]) { self.text = text }

    mutating func scan(
        _ visit: (_ path: [String], _ name: String, _ value: String) throws(CameraRemoteAPIError) -> Void
    ) throws(CameraRemoteAPIError) {
        var stack: [(name: String, text: String)] = []
        var sawRoot = false
        while index < text.count {
            if text[index] != "<" {
                let start = index
                while index < text.count && text[index] != "<" { index += 1 }
                if !stack.isEmpty {
                    stack[stack.count - 1].text += String(String.UnicodeScalarView(text[start..<index]))
                }
                continue
            }
            if starts(with: "<?") {
                try skip(past: "?>")
            } else if starts(with: "<!--") {
                try skip(past: "-->")
            } else if starts(with: "<![CDATA[") {
                index += 9
                let start = index
                try skip(past: "]]>")
                if !stack.isEmpty {
                    stack[stack.count - 1].text += String(String.UnicodeScalarView(text[start..<index - 3]))
                }
            } else if starts(with: "<!") {
                try skip(past: ">")
            } else if starts(with: "</") {
                index += 2
                let name = try tagName()
                try skip(past: ">")
                guard let open = stack.popLast(), open.name == name else {
                    throw .deviceDescription("</\(name)> closes no open element")
                }
                try visit(stack.map(\.name), name, try Self.decodeEntities(open.text.trimmingSpacesAndLines))
            } else {
                index += 1
                let name = try tagName()
                let tagStart = index
                try skip(past: ">")
                let selfClosing = index >= 2 && text[index - 2] == "/" && index - 2 >= tagStart
                if selfClosing {
                    try visit(stack.map(\.name), name, "")
                } else {
                    guard stack.count < DeviceDescription.maximumDepth else {
                        throw .deviceDescription("nested deeper than \(DeviceDescription.maximumDepth) elements")
                    }
                    stack.append((name, ""))
                }
                sawRoot = true
            }
        }
        guard sawRoot, stack.isEmpty else { throw .deviceDescription("unclosed elements or no root element") }
    }

    private func starts(with prefix: String) -> Bool {
        var at = index
        for scalar in prefix.unicodeScalars {
            guard at < text.count, text[at] == scalar else { return false }
            at += 1
        }
        return true
    }

    private mutating func skip(past terminator: String) throws(CameraRemoteAPIError) {
        while index < text.count {
            if starts(with: terminator) {
                index += terminator.unicodeScalars.count
                return
            }
            index += 1
        }
        throw .deviceDescription("'\(terminator)' missing at the end")
    }

    /// The element name at `index`, without its namespace prefix.
    private mutating func tagName() throws(CameraRemoteAPIError) -> String {
        let start = index
        while index < text.count, !" \t\r\n/>".unicodeScalars.contains(text[index]) { index += 1 }
        guard index > start, index - start <= 128 else { throw .deviceDescription("an element without a name") }
        let qualified = String(String.UnicodeScalarView(text[start..<index]))
        return qualified.split(separator: ":").last.map(String.init) ?? qualified
    }

    private static func decodeEntities(_ value: Substring) throws(CameraRemoteAPIError) -> String {
        guard value.contains("&") else { return String(value) }
        var out = ""
        var rest = value
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            guard let semicolon = rest[amp...].prefix(12).firstIndex(of: ";") else {
                throw .deviceDescription("an unterminated entity")
            }
            switch rest[rest.index(after: amp)..<semicolon] {
            case "amp": out += "&"
            case "lt": out += "<"
            case "gt": out += ">"
            case "quot": out += "\""
            case "apos": out += "'"
            case let other: throw .deviceDescription("unknown entity '&\(other);'")
            }
            rest = rest[rest.index(after: semicolon)...]
        }
        return out + rest
    }
}

extension String {
    /// The text without leading and trailing whitespace and line ends.
    fileprivate var trimmingSpacesAndLines: Substring {
        guard let first = firstIndex(where: { !$0.isWhitespace }), let last = lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return self[first...last]
    }
}
