/// The TIFF/EXIF tags and field types hdrshoot reads and writes (TIFF 6.0 section 2; EXIF 2.32 section 4.6).
enum ExifTag {
    /// NewSubfileType, LONG, in IFD0 (TIFF 6.0 p. 36): 1 = a reduced-resolution image (an ARW's preview).
    static let newSubfileType: UInt16 = 0x00FE
    /// Make, ASCII, in IFD0.
    static let make: UInt16 = 0x010F
    /// Model, ASCII, in IFD0.
    static let model: UInt16 = 0x0110
    /// SubIFDs (TIFF technote 1, used by ARW and DNG for the raw image): LONG or IFD offsets.
    static let subIFDs: UInt16 = 0x014A
    /// JPEGInterchangeFormat, LONG: where an embedded JPEG starts (TIFF 6.0 p. 105; an ARW's preview in IFD0).
    static let jpegInterchangeFormat: UInt16 = 0x0201
    /// JPEGInterchangeFormatLength, LONG: how many bytes that embedded JPEG has (TIFF 6.0 p. 105).
    static let jpegInterchangeFormatLength: UInt16 = 0x0202
    /// ExposureTime, RATIONAL seconds, in the Exif IFD.
    static let exposureTime: UInt16 = 0x829A
    /// Exif IFD pointer, LONG or IFD, in IFD0.
    static let exifIFDPointer: UInt16 = 0x8769
    /// ExifVersion, 4 UNDEFINED bytes such as "0232", in the Exif IFD.
    static let exifVersion: UInt16 = 0x9000
    /// DateTimeOriginal, ASCII `YYYY:MM:DD HH:MM:SS`, in the Exif IFD.
    static let dateTimeOriginal: UInt16 = 0x9003
}

/// TIFF field types (TIFF 6.0 p. 15; IFD = 13 from TIFF technote 1) and their sizes in bytes.
enum ExifFieldType: UInt16 {
    case byte = 1
    case ascii = 2
    case short = 3
    case long = 4
    case rational = 5
    case signedByte = 6
    case undefined = 7
    case signedShort = 8
    case signedLong = 9
    case signedRational = 10
    case float = 11
    case double = 12
    case ifd = 13

    /// Bytes per value.
    var size: Int {
        switch self {
        case .byte, .ascii, .signedByte, .undefined: return 1
        case .short, .signedShort: return 2
        case .long, .signedLong, .float, .ifd: return 4
        case .rational, .signedRational, .double: return 8
        }
    }
}

/// How much of a file the reader is prepared to look at: hostile counts and offsets meet these first.
enum ExifLimits {
    /// Most entries one IFD may declare (real IFDs hold tens; the field allows 65,535).
    static let entriesPerIFD = 1000
    /// Most IFDs read in one file (IFD0, the Exif IFD, SubIFDs and their Exif IFDs).
    static let directories = 32
    /// Most SubIFDs offsets one entry may list.
    static let subIFDs = 16
    /// Longest ASCII value read, in bytes (Model and DateTimeOriginal are tens of bytes).
    static let stringBytes = 1024
}
