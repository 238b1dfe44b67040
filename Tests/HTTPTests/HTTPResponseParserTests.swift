import HTTP
import Testing

/// `HTTPResponseParser`: whole, byte-at-a-time and malformed responses; limits checked before buffering.
@Suite struct HTTPResponseParserTests {
    /// A camera's JSON-RPC answer: status line, two headers, a 21-byte body with Content-Length.
    static let fixedLength = Array(
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 21\r\n\r\n{\"result\":[0],\"id\":1}".utf8)
    /// The same body in three chunks (5, 0x10 - hex - , then the 0-size end) with a chunk extension and a trailer.
    static let chunked = Array(
        ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;name=x\r\n{\"res\r\n10\r\nult\":[0],\"id\":1}\r\n"
            + "0\r\nX-Trailer: yes\r\n\r\n").utf8)

    private static func parseAll(
        _ stream: [UInt8], readSize: Int, limits: HTTPLimits = .jsonRPC
    ) throws
        -> [HTTPResponse]
    {
        var parser = HTTPResponseParser(limits: limits)
        var responses: [HTTPResponse] = []
        var start = 0
        while start < stream.count {
            let end = min(start + readSize, stream.count)
            parser.append(stream[start..<end])
            while let response = try parser.nextResponse() { responses.append(response) }
            start = end
        }
        if let last = try parser.finishAtEndOfStream() { responses.append(last) }
        return responses
    }

    @Test func readsStatusHeadersAndAContentLengthBody() throws {
        let responses = try Self.parseAll(Self.fixedLength, readSize: Self.fixedLength.count)
        #expect(responses.count == 1)
        let response = try #require(responses.first)
        #expect(response.status == 200)
        #expect(response.reason == "OK")
        #expect(response.headers["content-type"] == "application/json")
        #expect(String(decoding: response.body, as: UTF8.self) == "{\"result\":[0],\"id\":1}")
        #expect(response.keepsAlive)
    }

    @Test func dechunksAChunkedBodyAndKeepsItsTrailer() throws {
        let response = try #require(try Self.parseAll(Self.chunked, readSize: Self.chunked.count).first)
        #expect(String(decoding: response.body, as: UTF8.self) == "{\"result\":[0],\"id\":1}")
        #expect(response.headers["X-Trailer"] == "yes")
    }

    @Test(arguments: [1, 2, 3, 7, 64])
    func anyReadSizeGivesTheSameResponses(readSize: Int) throws {
        let stream = Self.fixedLength + Self.chunked + Self.fixedLength
        let whole = try Self.parseAll(stream, readSize: stream.count)
        #expect(whole.count == 3)
        #expect(try Self.parseAll(stream, readSize: readSize) == whole)
    }

    @Test func aBodyWithoutLengthEndsWithTheConnectionAndIsNotKeptAlive() throws {
        let stream = Array("HTTP/1.0 200 OK\r\nContent-Type: image/jpeg\r\n\r\nabcdef".utf8)
        let response = try #require(try Self.parseAll(stream, readSize: 1).first)
        #expect(response.body == Array("abcdef".utf8))
        #expect(!response.keepsAlive)
    }

    @Test func anInterimContinueIsSkippedAndANoContentHasNoBody() throws {
        let stream = Array("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n".utf8)
        let responses = try Self.parseAll(stream, readSize: 4)
        #expect(responses.map(\.status) == [204])
        #expect(responses.first?.body == [])
    }

    @Test func connectionCloseIsNotKeptAlive() throws {
        let stream = Array("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n".utf8)
        #expect(try Self.parseAll(stream, readSize: 3).first?.keepsAlive == false)
    }

    /// Malformed heads and bodies, each with the reason it must be refused.
    static let malformed: [(name: String, bytes: String)] = [
        ("not HTTP", "SSH-2.0-OpenSSH\r\n\r\n"),
        ("HTTP/2 status line", "HTTP/2 200 OK\r\n\r\n"),
        ("two-digit status", "HTTP/1.1 20 OK\r\n\r\n"),
        ("letters in status", "HTTP/1.1 2x0 OK\r\n\r\n"),
        ("bare LF", "HTTP/1.1 200 OK\nContent-Length: 0\n\n"),
        ("header without colon", "HTTP/1.1 200 OK\r\nContent-Length 0\r\n\r\n"),
        ("space before colon", "HTTP/1.1 200 OK\r\nContent-Length : 0\r\n\r\n"),
        ("folded header", "HTTP/1.1 200 OK\r\nX-A: 1\r\n  folded\r\nContent-Length: 0\r\n\r\n"),
        ("negative length", "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n"),
        ("length with sign", "HTTP/1.1 200 OK\r\nContent-Length: +5\r\n\r\nhello"),
        ("conflicting lengths", "HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab"),
        ("length and chunked", "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"),
        ("gzip coding", "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n"),
        ("bad chunk size", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"),
        ("chunk longer than said", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nab\r\n0\r\n\r\n"),
        ("control byte in value", "HTTP/1.1 200 OK\r\nX-A: a\u{1}b\r\nContent-Length: 0\r\n\r\n"),
        ("cut short", "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc")
    ]

    @Test(arguments: malformed.indices)
    func malformedInputThrowsATypedErrorInsteadOfTrapping(index: Int) {
        let (name, text) = Self.malformed[index]
        for readSize in [1, 1000] {
            #expect(throws: HTTPError.self, "\(name), read size \(readSize)") {
                try Self.parseAll(Array(text.utf8), readSize: readSize)
            }
        }
    }

    @Test func theErrorSaysWhereTheBytesWentWrong() {
        var parser = HTTPResponseParser()
        parser.append(Array("HTTP/1.1 200 OK\r\nbad line\r\n\r\n".utf8))
        #expect(throws: HTTPError.malformed("header line without a name and a colon", offset: 17)) {
            try parser.nextResponse()
        }
    }

    @Test func anAnnouncedBodyOverTheLimitIsRefusedBeforeAnyOfItArrives() {
        var parser = HTTPResponseParser(limits: HTTPLimits(maximumBodyBytes: 1000))
        parser.append(Array("HTTP/1.1 200 OK\r\nContent-Length: 4294967296\r\n\r\n".utf8))
        #expect(throws: HTTPError.tooLarge(.body, limit: 1000, announced: 4_294_967_296)) {
            try parser.nextResponse()
        }
    }

    @Test func chunksAddingUpPastTheLimitAreRefusedAtTheSizeLine() {
        var parser = HTTPResponseParser(limits: HTTPLimits(maximumBodyBytes: 100))
        parser.append(Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n50\r\n".utf8))
        parser.append([UInt8](repeating: 0x41, count: 80) + Array("\r\n40\r\n".utf8))
        #expect(throws: HTTPError.tooLarge(.body, limit: 100, announced: 144)) {
            while try parser.nextResponse() == nil {}
        }
    }

    @Test func aHeadThatNeverEndsIsRefusedAtTheHeadLimit() {
        var parser = HTTPResponseParser(limits: HTTPLimits(maximumHeadBytes: 256))
        parser.append(Array("HTTP/1.1 200 OK\r\n".utf8))
        var thrown: HTTPError?
        for _ in 0..<100 {
            parser.append(Array("X-Padding: 0123456789\r\n".utf8))
            do throws(HTTPError) { _ = try parser.nextResponse() } catch {
                thrown = error
                break
            }
        }
        guard case let .tooLarge(what, limit, _)? = thrown else {
            Issue.record("expected tooLarge, got \(String(describing: thrown))")
            return
        }
        #expect(what == .head)
        #expect(limit == 256)
    }

    @Test func tooManyHeaderFieldsAreRefused() {
        var parser = HTTPResponseParser(limits: HTTPLimits(maximumHeaderCount: 3))
        parser.append(Array("HTTP/1.1 200 OK\r\nA: 1\r\nB: 2\r\nC: 3\r\nD: 4\r\n\r\n".utf8))
        #expect(throws: HTTPError.tooLarge(.headerFields, limit: 3, announced: 4)) {
            try parser.nextResponse()
        }
    }

    @Test func aRequestRoundTripsThroughTheSimulatorsParser() throws {
        let request = HTTPRequest(
            method: "POST", target: "/sony/camera", headers: HTTPHeaders([("Content-Type", "application/json")]),
            body: Array("{\"id\":1}".utf8))
        let bytes = request.encoded(host: "127.0.0.1:8080")
        var parser = HTTPRequestParser()
        for byte in bytes { parser.append([byte]) }
        let parsed = try #require(try parser.nextRequest())
        #expect(parsed.method == "POST")
        #expect(parsed.target == "/sony/camera")
        #expect(parsed.body == request.body)
        #expect(parsed.headers["Host"] == "127.0.0.1:8080")
        #expect(parsed.keepsAlive)
    }
}
