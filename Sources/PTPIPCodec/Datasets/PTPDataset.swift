import ByteCoding

/// A dataset a data phase carries (DeviceInfo, ObjectInfo; ISO 15740 §5.5): read field by field from a reader, or
/// decoded from a whole data phase, where every byte must belong to the dataset (the one rule for both).
package protocol PTPDataset {
    /// The dataset's name, as an error about leftover bytes says it.
    static var datasetName: String { get }

    /// Reads the dataset from `reader`, leaving any bytes after it.
    init(reading reader: inout ByteReader) throws
}

extension PTPDataset {
    /// Decodes a whole data phase; every byte must belong to the dataset.
    package init<Bytes: Collection<UInt8>>(decoding bytes: Bytes) throws(PTPIPCodecError) {
        var reader = ByteReader(bytes: bytes)
        do {
            self = try Self(reading: &reader)
            try reader.expectEnd(after: Self.datasetName)
        } catch {
            throw PTPIPCodecError.wrap(error)
        }
    }
}
