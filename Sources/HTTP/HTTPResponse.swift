/// One HTTP/1.1 response as the parser delivers it: status, headers in order, and the whole body.
package struct HTTPResponse: Sendable, Equatable {
    /// The status code (200, 404, 503...).
    package let status: Int
    /// The reason phrase as sent (may be empty).
    package let reason: String
    /// The header fields in the order they came, names as sent.
    package let headers: HTTPHeaders
    /// The body, de-chunked.
    package let body: [UInt8]
    /// Whether the connection may carry another request after this response (HTTP/1.1 without
    /// `Connection: close`, or HTTP/1.0 with `Connection: keep-alive`, and a body that had a length).
    package let keepsAlive: Bool

    /// Creates a response (the parser's, or a server's before encoding).
    package init(status: Int, reason: String, headers: HTTPHeaders, body: [UInt8], keepsAlive: Bool) {
        self.status = status
        self.reason = reason
        self.headers = headers
        self.body = body
        self.keepsAlive = keepsAlive
    }
}

/// HTTP header fields in order; lookups ignore the case of names, as HTTP says (RFC 9110 §5.1).
package struct HTTPHeaders: Sendable, Equatable, Sequence {
    /// The fields as (name, value) pairs.
    package private(set) var fields: [(name: String, value: String)]

    /// Creates headers from pairs, in order.
    package init(_ fields: [(name: String, value: String)] = []) { self.fields = fields }

    /// The value of the first field named `name` (any case), or nil.
    package subscript(_ name: String) -> String? {
        let wanted = name.lowercased()
        return fields.first { $0.name.lowercased() == wanted }?.value
    }

    /// Every value of fields named `name` (any case), in order.
    package func values(_ name: String) -> [String] {
        let wanted = name.lowercased()
        return fields.filter { $0.name.lowercased() == wanted }.map(\.value)
    }

    /// Appends a field.
    package mutating func add(_ name: String, _ value: String) { fields.append((name, value)) }

    package func makeIterator() -> IndexingIterator<[(name: String, value: String)]> { fields.makeIterator() }

    package static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.count == rhs.fields.count
            && zip(lhs.fields, rhs.fields).allSatisfy { $0.name == $1.name && $0.value == $1.value }
    }
}

/// What the HTTP layer accepts from a peer; every size is checked before the bytes are kept.
package struct HTTPLimits: Sendable, Equatable {
    /// The status line and all header lines together, with their line ends.
    package var maximumHeadBytes: Int
    /// How many header fields (trailers included).
    package var maximumHeaderCount: Int
    /// The body after de-chunking.
    package var maximumBodyBytes: Int

    /// Creates limits.
    package init(maximumHeadBytes: Int = 16 * 1024, maximumHeaderCount: Int = 64, maximumBodyBytes: Int = 1 << 20) {
        self.maximumHeadBytes = maximumHeadBytes
        self.maximumHeaderCount = maximumHeaderCount
        self.maximumBodyBytes = maximumBodyBytes
    }

    /// JSON-RPC answers: small (a getEvent with every field is a few kB); 1 MiB is generous.
    package static let jsonRPC = HTTPLimits()
}
