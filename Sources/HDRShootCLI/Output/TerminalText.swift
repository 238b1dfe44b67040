/// Text written to a terminal, read back as what a person saw on it.
///
/// A small line emulator, enough for what hdrshoot writes: printable characters overwrite the line from the
/// cursor, a carriage return moves the cursor to the start, `ESC[2K` clears the line (the live line redraws
/// itself with `\r ESC[2K`) and `ESC[K` clears it from the cursor on; every other escape sequence (colours, OSC
/// titles, character sets) and control character is dropped.
enum TerminalText {
    /// The lines of `text` as they stood on the screen, each without trailing spaces; lines left empty are
    /// dropped.
    static func visibleLines(_ text: String) -> [String] {
        var lines: [String] = []
        var line: [Unicode.Scalar] = []
        var cursor = 0
        func finishLine() {
            var end = line.endIndex
            while end > line.startIndex, line[end - 1] == " " || line[end - 1] == "\t" { end -= 1 }
            if end > line.startIndex {
                var text = ""
                text.unicodeScalars.append(contentsOf: line[..<end])
                lines.append(text)
            }
            line = []
            cursor = 0
        }
        var scalars = text.unicodeScalars[...]
        while let scalar = scalars.popFirst() {
            switch scalar.value {
            case 0x0A:
                finishLine()
            case 0x0D:
                cursor = 0
            case 0x1B, 0x9B:
                let erase: String? = scalar.value == 0x9B ? controlSequence(&scalars) : escape(&scalars)
                switch erase {
                case "2K": line = []
                case "K", "0K": line.removeSubrange(min(cursor, line.count)...)
                default: break
                }
            case 0x09, 0x20..<0x7F, 0xA0...:
                if cursor < line.count {
                    line[cursor] = scalar
                } else {
                    line += Array(repeating: " ", count: cursor - line.count) + [scalar]
                }
                cursor += 1
            default:
                continue
            }
        }
        finishLine()
        return lines
    }

    /// Consumes what follows an ESC; returns a control sequence's parameters and final byte (`2K`), or nil for
    /// any other escape (an OSC up to BEL or ESC `\`, a character set designation, a two-character escape).
    private static func escape(_ scalars: inout Substring.UnicodeScalarView.SubSequence) -> String? {
        guard let next = scalars.popFirst() else { return nil }
        switch next.value {
        case 0x5B: // [
            return controlSequence(&scalars)
        case 0x5D, 0x50, 0x5E, 0x5F: // ] P ^ _: a string up to BEL or ST
            while let scalar = scalars.popFirst() {
                if scalar.value == 0x07 { return nil }
                if scalar.value == 0x1B {
                    if scalars.first == "\\" { scalars.removeFirst() }
                    return nil
                }
            }
            return nil
        case 0x20...0x2F: // intermediate bytes, then a final byte
            while let scalar = scalars.popFirst(), !(0x30...0x7E).contains(scalar.value) {}
            return nil
        default:
            return nil
        }
    }

    /// Consumes a control sequence's parameter and intermediate bytes and its final byte (0x40-0x7E); returns
    /// them (`2K`).
    private static func controlSequence(_ scalars: inout Substring.UnicodeScalarView.SubSequence) -> String {
        var text = ""
        while let scalar = scalars.popFirst() {
            text.unicodeScalars.append(scalar)
            if (0x40...0x7E).contains(scalar.value) { break }
        }
        return text
    }
}
