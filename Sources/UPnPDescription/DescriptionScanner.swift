/// The one scanner of UPnP device descriptions (`dd.xml`, `DigitalImagingDesc.xml`, a legacy body's
/// `DmsRmtDesc.xml`): small, flat XML read element by element, matched by local name so any namespace prefix
/// (`av:`, `x:`) works. Pure: text in, elements out.
///
/// Not a general XML parser: the document is at most `maximumBytes` and nested at most `maximumDepth`;
/// comments, processing instructions and DOCTYPEs are skipped, CDATA is text, the five predefined entities
/// are decoded. Two modes: `.strict` throws on malformed markup (the Camera Remote API client refuses such a
/// description), `.tolerant` reads what it can (discovery must not stop at one odd element: the reference's own
/// sample, p. 38, writes `< X_ScalarWebAPI_DeviceInfo` with a space).
package enum DescriptionScanner {
    /// One element, reported when it closes.
    package struct Element: Sendable, Hashable {
        /// The local names of the open elements around it, outermost first.
        package var path: [String]
        /// Its local name (`friendlyName` for `<av:friendlyName>`).
        package var name: String
        /// The text it holds directly, entity-decoded and trimmed.
        package var text: String
        /// A number of the element it sits in, the same for siblings (0 at the top): children of one `<service>`
        /// share it.
        package var parent: Int
        /// This element's own number (what its children carry as `parent`).
        package var id: Int
    }

    /// How malformed markup is met.
    package enum Mode: Sendable {
        /// Throw `DescriptionScanError`.
        case strict
        /// Skip what cannot be read; close what is left open at the end.
        case tolerant
    }

    /// The largest description accepted (in UTF-8 bytes).
    package static let maximumBytes = 64 * 1024
    /// The deepest nesting accepted.
    package static let maximumDepth = 32

    /// Every element of `text`, in the order they close.
    package static func elements(
        in text: String, mode: Mode = .strict
    ) throws(DescriptionScanError) -> [Element] {
        guard text.utf8.count <= maximumBytes else { throw .tooLarge(limit: maximumBytes, size: text.utf8.count) }
        var scanner = Scanner(text: Array(text.unicodeScalars), strict: mode == .strict)
        return try scanner.scan()
    }

    /// The text of the first element named `name` anywhere, or nil (an empty element gives nil too).
    package static func first(_ name: String, in elements: [Element]) -> String? {
        elements.first { $0.name == name }.map(\.text).flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The children of each element named `name`, one array per such element, in document order.
    package static func children(of name: String, in elements: [Element]) -> [[Element]] {
        elements.filter { $0.name == name }.sorted { $0.id < $1.id }.map { block in
            elements.filter { $0.parent == block.id }
        }
    }
}

/// Why a description could not be scanned (tolerant mode throws only for size and nesting past the limits).
package enum DescriptionScanError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Longer than `DescriptionScanner.maximumBytes`.
    case tooLarge(limit: Int, size: Int)
    /// Markup the scanner cannot read; the reason names what.
    case malformed(String)

    /// One phrase for the layer that wraps it.
    package var description: String {
        switch self {
        case let .tooLarge(limit, size): "\(size) bytes, more than the \(limit) accepted"
        case let .malformed(reason): reason
        }
    }
}

private struct Scanner {
    let text: [Unicode.Scalar]
    let strict: Bool
    var index = 0
    var nextID = 1

    init(text: [Unicode.Scalar], strict: Bool) {
        self.text = text
        self.strict = strict
    }

    private struct Open {
        var name: String
        var text: String
        var id: Int
    }

    mutating func scan() throws(DescriptionScanError) -> [DescriptionScanner.Element] {
        var stack: [Open] = []
        var out: [DescriptionScanner.Element] = []
        var sawRoot = false
        func close(_ open: Open, under stack: [Open]) throws(DescriptionScanError) {
            let value = try decodeEntities(open.text.trimmedOfWhitespace)
            out.append(
                .init(path: stack.map(\.name), name: open.name, text: value, parent: stack.last?.id ?? 0, id: open.id))
        }
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
                    stack[stack.count - 1].text += String(String.UnicodeScalarView(text[start..<max(start, index - 3)]))
                }
            } else if starts(with: "<!") {
                try skip(past: ">")
            } else if starts(with: "</") {
                index += 2
                guard let name = try tagName() else { continue }
                try skip(past: ">")
                if let match = stack.lastIndex(where: { $0.name == name }), !strict || match == stack.count - 1 {
                    while stack.count > match {
                        let open = stack.removeLast()
                        try close(open, under: stack)
                    }
                } else if strict {
                    throw .malformed("</\(name)> closes no open element")
                }
            } else {
                index += 1
                guard let name = try tagName() else { continue }
                let tagStart = index
                try skip(past: ">")
                let selfClosing = index >= 2 && text[index - 2] == "/" && index - 2 >= tagStart
                let id = nextID
                nextID += 1
                if selfClosing {
                    out.append(
                        .init(path: stack.map(\.name), name: name, text: "", parent: stack.last?.id ?? 0, id: id))
                } else {
                    guard stack.count < DescriptionScanner.maximumDepth else {
                        throw .malformed("nested deeper than \(DescriptionScanner.maximumDepth) elements")
                    }
                    stack.append(Open(name: name, text: "", id: id))
                }
                sawRoot = true
            }
        }
        if strict {
            guard sawRoot, stack.isEmpty else { throw .malformed("unclosed elements or no root element") }
        }
        while let open = stack.popLast() { try close(open, under: stack) }
        return out
    }

    private func starts(with prefix: String) -> Bool {
        var at = index
        for scalar in prefix.unicodeScalars {
            guard at < text.count, text[at] == scalar else { return false }
            at += 1
        }
        return true
    }

    private mutating func skip(past terminator: String) throws(DescriptionScanError) {
        while index < text.count {
            if starts(with: terminator) {
                index += terminator.unicodeScalars.count
                return
            }
            index += 1
        }
        if strict { throw .malformed("'\(terminator)' missing at the end") }
    }

    /// The element name at `index` without its namespace prefix; nil (tolerant) when there is none: the `<` is
    /// then read as text.
    private mutating func tagName() throws(DescriptionScanError) -> String? {
        let start = index
        while index < text.count, !" \t\r\n/>".unicodeScalars.contains(text[index]) { index += 1 }
        guard index > start, index - start <= 128 else {
            if strict { throw .malformed("an element without a name") }
            return nil
        }
        let qualified = String(String.UnicodeScalarView(text[start..<index]))
        return qualified.split(separator: ":").last.map(String.init) ?? qualified
    }

    private func decodeEntities(_ value: Substring) throws(DescriptionScanError) -> String {
        guard value.contains("&") else { return String(value) }
        var out = ""
        var rest = value
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            guard let semicolon = rest[amp...].prefix(12).firstIndex(of: ";") else {
                if strict { throw .malformed("an unterminated entity") }
                out += "&"
                rest = rest[rest.index(after: amp)...]
                continue
            }
            switch rest[rest.index(after: amp)..<semicolon] {
            case "amp": out += "&"
            case "lt": out += "<"
            case "gt": out += ">"
            case "quot": out += "\""
            case "apos": out += "'"
            case let other:
                if strict { throw .malformed("unknown entity '&\(other);'") }
                out += rest[amp...semicolon]
            }
            rest = rest[rest.index(after: semicolon)...]
        }
        return out + rest
    }
}

extension String {
    /// The text without leading and trailing whitespace and line ends.
    fileprivate var trimmedOfWhitespace: Substring {
        guard let first = firstIndex(where: { !$0.isWhitespace }), let last = lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return self[first...last]
    }
}
