/// The parts of a UPnP device description (the XML at an SSDP LOCATION) that hdrshoot shows.
package struct DeviceDescription: Sendable, Hashable {
    /// `<friendlyName>`: the name the owner gave the camera (`ILCE-7M4`).
    package var friendlyName: String
    /// `<UDN>`: `uuid:...`, stable per body.
    package var udn: String
    /// `<modelName>`.
    package var modelName: String
    /// Whether the DigitalImaging service says the body wants pairing (Sony's `X_PairingRequired`-style flags).
    package var pairingRequired: Bool
    /// Whether the DigitalImaging service says the body wants an SSH (access authentication) connection.
    package var sshRequired: Bool

    /// Extracts the fields from the description's text; nil when it has no `<UDN>`.
    ///
    /// A tag scan rather than a full XML parse: descriptions are small and flat, and a missing or odd
    /// element must not stop discovery.
    package init?(xml: String) {
        guard let udn = Self.element("UDN", in: xml) else { return nil }
        self.udn = udn
        friendlyName = Self.element("friendlyName", in: xml) ?? ""
        modelName = Self.element("modelName", in: xml) ?? ""
        pairingRequired = Self.flag(containing: "Pairing", in: xml)
        sshRequired = Self.flag(containing: "SSH", in: xml)
    }

    /// The text of the first `<name>` (or `<prefix:name>`) element, entity-decoded and trimmed.
    static func element(_ name: String, in xml: String) -> String? {
        var search = xml[...]
        while let open = search.range(of: "<") {
            let afterOpen = search[open.upperBound...]
            guard let close = afterOpen.firstIndex(of: ">") else { return nil }
            let tag = afterOpen[..<close]
            let local = tag.split(separator: ":").last.map(String.init) ?? String(tag)
            search = afterOpen[afterOpen.index(after: close)...]
            guard local == name, let end = search.range(of: "</") else { continue }
            return decode(String(search[..<end.lowerBound])).trimmingWhitespace()
        }
        return nil
    }

    /// Whether an element whose name contains `word` holds a true-ish value (`true`, `1`, `yes`).
    static func flag(containing word: String, in xml: String) -> Bool {
        var search = xml[...]
        while let open = search.range(of: "<") {
            let afterOpen = search[open.upperBound...]
            guard let close = afterOpen.firstIndex(of: ">") else { return false }
            let tag = String(afterOpen[..<close])
            search = afterOpen[afterOpen.index(after: close)...]
            guard !tag.hasPrefix("/"), tag.lowercased().contains(word.lowercased()), let end = search.range(of: "<") else { continue }
            let value = String(search[..<end.lowerBound]).trimmingWhitespace().lowercased()
            if ["true", "1", "yes", "required"].contains(value) { return true }
        }
        return false
    }

    private static func decode(_ text: String) -> String {
        text.replacing("&lt;", with: "<").replacing("&gt;", with: ">").replacing("&quot;", with: "\"")
            .replacing("&apos;", with: "'").replacing("&amp;", with: "&")
    }
}

extension String {
    /// Without leading and trailing spaces, tabs and newlines.
    fileprivate func trimmingWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        return String(drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }
}
