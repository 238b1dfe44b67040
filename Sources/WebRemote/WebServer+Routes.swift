import Foundation
import HTTP

/// What the server does with a request: answer it, or turn the connection into an event stream.
enum WebAnswer: Sendable {
    /// One response.
    case response(HTTPResponse)
    /// `GET /events`: the connection becomes a Server-Sent Events stream.
    case events
}

/// The few responses the server builds, each with the headers every answer carries.
enum WebResponse {
    /// Headers on every answer: nothing cached, nothing sniffed, never framed, no referrer; and no
    /// `Access-Control-Allow-Origin`, ever.
    static let common: [(name: String, value: String)] = [
        ("Cache-Control", "no-store"), ("X-Content-Type-Options", "nosniff"), ("X-Frame-Options", "DENY"),
        ("Referrer-Policy", "no-referrer")
    ]

    /// The page's policy: its own inline script and style, images from itself, requests to itself only.
    static let pagePolicy =
        "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src 'self' blob:; "
        + "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    static func make(
        status: Int, type: String, body: [UInt8], extra: [(name: String, value: String)] = [], keepsAlive: Bool = true
    ) -> HTTPResponse {
        HTTPResponse(
            status: status, reason: reason(status), headers: HTTPHeaders(common + [("Content-Type", type)] + extra),
            body: body, keepsAlive: keepsAlive)
    }

    /// A plain-text answer (errors, refusals).
    static func text(status: Int, _ message: String, keepsAlive: Bool = true) -> HTTPResponse {
        make(
            status: status, type: "text/plain; charset=utf-8", body: Array((message + "\n").utf8),
            keepsAlive: keepsAlive)
    }

    /// A JSON answer.
    static func json(status: Int = 200, _ body: [UInt8]) -> HTTPResponse {
        make(status: status, type: "application/json", body: body)
    }

    /// `{"ok":true}` or `{"ok":false,"message":...}` for a command.
    static func commandResult(_ refusal: RemoteCommandRefusal?) -> HTTPResponse {
        guard let refusal else { return json(Array(#"{"ok":true}"#.utf8)) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        let message = (try? encoder.encode(refusal.message)).map { Array($0) } ?? Array(#""""#.utf8)
        return json(status: refusal.status, Array(#"{"ok":false,"message":"#.utf8) + message + Array("}".utf8))
    }

    static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 409: "Conflict"
        case 413: "Content Too Large"
        case 415: "Unsupported Media Type"
        case 421: "Misdirected Request"
        case 431: "Request Header Fields Too Large"
        case 503: "Service Unavailable"
        default: "Status"
        }
    }
}

extension WebServer {
    /// The routes. Paths are matched whole, never mapped onto files: thumbnails are addressed by set and frame
    /// number, so `..`, `%2e%2e` and absolute paths are simply not found.
    func answer(_ request: HTTPRequest) async -> WebAnswer {
        let path = String(request.target.prefix { $0 != "?" })
        let command = Self.commands[path]
        let isCommand = command != nil || request.method == "POST"
        if case let .refused(status, message) = gate.check(request, isCommand: isCommand) {
            return .response(WebResponse.text(status: status, message, keepsAlive: request.keepsAlive))
        }
        switch (request.method, path) {
        case ("GET", "/"), ("GET", "/index.html"):
            return .response(
                WebResponse.make(
                    status: 200, type: "text/html; charset=utf-8",
                    body: configuration.simulated ? RemotePage.simulatedBytes : RemotePage.bytes,
                    extra: [("Content-Security-Policy", WebResponse.pagePolicy)]))
        case ("GET", "/api/state"):
            guard let latest = hub.latest else {
                return .response(WebResponse.text(status: 503, "The shoot has no state yet."))
            }
            return .response(WebResponse.json(latest.data))
        case ("GET", "/events"):
            return .events
        case ("GET", "/api/link"):
            // `{"link": null}` or `{"link": {"lastOperation": "GetObject", "lastOperationMilliseconds": 3.1,
            // "reconnects": 0, "lines": [...], "notes": [...]}}`.
            let health = await shoot.link()
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let body = (try? encoder.encode(["link": health])).map { Array($0) } ?? Array(#"{"link":null}"#.utf8)
            return .response(WebResponse.json(body))
        case ("GET", "/api/resumable"):
            // `{"shoot": null}` or `{"shoot": {"id": ..., "folder": ..., "saved": 7, "total": 15}}`.
            let offer = await shoot.resumable()
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let body = (try? encoder.encode(["shoot": offer])).map { Array($0) } ?? Array(#"{"shoot":null}"#.utf8)
            return .response(WebResponse.json(body))
        case ("POST", _):
            guard let command else { return .response(WebResponse.text(status: 404, "No such command.")) }
            return .response(await perform(command, body: request.body))
        case ("GET", _):
            if let (set, frame) = Self.framePosition(path, suffix: ".json") {
                // The range check's measurement of the frame: the page's histogram and clipping figures.
                guard let reading = await shoot.luminance(set: set, frame: frame) else {
                    return .response(WebResponse.text(status: 404, "No measured image for set \(set), frame \(frame)."))
                }
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys]
                let body = (try? encoder.encode(reading)).map { Array($0) } ?? Array("{}".utf8)
                return .response(WebResponse.json(body))
            }
            if let (set, frame) = Self.thumbnailPosition(path) {
                guard let jpeg = await shoot.thumbnail(set: set, frame: frame) else {
                    return .response(WebResponse.text(status: 404, "No saved image for set \(set), frame \(frame)."))
                }
                return .response(WebResponse.make(status: 200, type: "image/jpeg", body: jpeg))
            }
            return .response(WebResponse.text(status: 404, "Not found."))
        default:
            var response = WebResponse.text(status: 405, "Only GET and POST are served.")
            response = HTTPResponse(
                status: response.status, reason: response.reason,
                headers: HTTPHeaders(response.headers.fields + [("Allow", "GET, POST")]), body: response.body,
                keepsAlive: response.keepsAlive)
            return .response(response)
        }
    }

    /// The command paths.
    static let commands: [String: String] = [
        "/api/shoot": "shoot", "/api/confirm": "confirm", "/api/decline": "decline", "/api/pause": "pause",
        "/api/resume": "resume", "/api/stop": "stop", "/api/check-camera": "check-camera"
    ]

    private func perform(_ name: String, body: [UInt8]) async -> HTTPResponse {
        let command: RemoteCommand
        switch name {
        case "check-camera":
            // `{"ok": true, "camera": {...}, "blockers": [...]}`, or a refusal.
            do {
                let status = try await shoot.checkCamera()
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                let encoded = (try? encoder.encode(status)).map { Array($0) } ?? Array("{}".utf8)
                return WebResponse.json(Array(#"{"ok":true,"#.utf8) + encoded.dropFirst())
            } catch {
                return WebResponse.commandResult(error)
            }
        case "shoot":
            guard
                let form = try? JSONDecoder().decode(ShootForm.self, from: Data(body.isEmpty ? Array("{}".utf8) : body))
            else {
                return WebResponse.text(status: 400, "The body is not a shoot request ({\"shadow\": \"1/4\", ...}).")
            }
            command = .shoot(form)
        case "confirm": command = .confirm
        case "decline": command = .decline
        case "pause": command = .pause
        case "resume": command = .resume
        default: command = .stop
        }
        do {
            try await shoot.perform(command)
            return WebResponse.commandResult(nil)
        } catch {
            return WebResponse.commandResult(error)
        }
    }

    /// `/api/frames/SET/FRAME.jpg` with plain decimal numbers (1-9999), else nil.
    static func thumbnailPosition(_ path: String) -> (set: Int, frame: Int)? { framePosition(path, suffix: ".jpg") }

    /// `/api/frames/SET/FRAME` + `suffix` (`.jpg`, `.json`) with plain decimal numbers (1-9999), else nil.
    static func framePosition(_ path: String, suffix: String) -> (set: Int, frame: Int)? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 5, parts[0].isEmpty, parts[1] == "api", parts[2] == "frames",
            parts[4].hasSuffix(suffix)
        else { return nil }
        func number(_ text: Substring) -> Int? {
            guard (1...4).contains(text.count), text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                let value = Int(text),
                value >= 1
            else { return nil }
            return value
        }
        guard let set = number(parts[3]), let frame = number(parts[4].dropLast(suffix.count)) else { return nil }
        return (set, frame)
    }
}
