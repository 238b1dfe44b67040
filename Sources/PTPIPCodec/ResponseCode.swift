/// A PTP response code (ISO 15740 §11.2), carried by an Operation Response.
package typealias ResponseCode = PTPCode<ResponseKind>

/// What makes a `PTPCode` an response code: its word in messages and the standard names.
package enum ResponseKind: PTPCodeKind {
    /// The word for a code without a name in messages.
    package static let kind = "response"

    /// The protocol's names of the standard codes.
    package static let standardNames: [UInt16: String] = [
        0x2001: "OK", 0x2002: "GeneralError", 0x2003: "SessionNotOpen", 0x2004: "InvalidTransactionID",
        0x2005: "OperationNotSupported", 0x2006: "ParameterNotSupported", 0x2007: "IncompleteTransfer",
        0x2008: "InvalidStorageID", 0x2009: "InvalidObjectHandle", 0x200A: "DevicePropNotSupported",
        0x200B: "InvalidObjectFormatCode", 0x200C: "StoreFull", 0x200D: "ObjectWriteProtected",
        0x200E: "StoreReadOnly", 0x200F: "AccessDenied", 0x2010: "NoThumbnailPresent", 0x2011: "SelfTestFailed",
        0x2012: "PartialDeletion", 0x2013: "StoreNotAvailable", 0x2014: "SpecificationByFormatUnsupported",
        0x2015: "NoValidObjectInfo", 0x2016: "InvalidCodeFormat", 0x2017: "UnknownVendorCode",
        0x2018: "CaptureAlreadyTerminated", 0x2019: "DeviceBusy", 0x201A: "InvalidParentObject",
        0x201B: "InvalidDevicePropFormat", 0x201C: "InvalidDevicePropValue", 0x201D: "InvalidParameter",
        0x201E: "SessionAlreadyOpen", 0x201F: "TransactionCancelled", 0x2020: "SpecificationOfDestinationUnsupported"
    ]
}

extension ResponseCode {
    /// OK = 0x2001.
    package static var ok: Self { Self(0x2001) }
    /// General_Error = 0x2002.
    package static var generalError: Self { Self(0x2002) }
    /// Session_Not_Open = 0x2003.
    package static var sessionNotOpen: Self { Self(0x2003) }
    /// Invalid_TransactionID = 0x2004.
    package static var invalidTransactionID: Self { Self(0x2004) }
    /// Operation_Not_Supported = 0x2005.
    package static var operationNotSupported: Self { Self(0x2005) }
    /// Parameter_Not_Supported = 0x2006.
    package static var parameterNotSupported: Self { Self(0x2006) }
    /// Incomplete_Transfer = 0x2007.
    package static var incompleteTransfer: Self { Self(0x2007) }
    /// Invalid_StorageID = 0x2008.
    package static var invalidStorageID: Self { Self(0x2008) }
    /// Invalid_ObjectHandle = 0x2009.
    package static var invalidObjectHandle: Self { Self(0x2009) }
    /// DeviceProp_Not_Supported = 0x200A.
    package static var devicePropNotSupported: Self { Self(0x200A) }
    /// Invalid_ObjectFormatCode = 0x200B.
    package static var invalidObjectFormatCode: Self { Self(0x200B) }
    /// Store_Full = 0x200C.
    package static var storeFull: Self { Self(0x200C) }
    /// Object_WriteProtected = 0x200D.
    package static var objectWriteProtected: Self { Self(0x200D) }
    /// Store_Read_Only = 0x200E.
    package static var storeReadOnly: Self { Self(0x200E) }
    /// Access_Denied = 0x200F.
    package static var accessDenied: Self { Self(0x200F) }
    /// No_Thumbnail_Present = 0x2010.
    package static var noThumbnailPresent: Self { Self(0x2010) }
    /// SelfTest_Failed = 0x2011.
    package static var selfTestFailed: Self { Self(0x2011) }
    /// Partial_Deletion = 0x2012.
    package static var partialDeletion: Self { Self(0x2012) }
    /// Store_Not_Available = 0x2013.
    package static var storeNotAvailable: Self { Self(0x2013) }
    /// Specification_By_Format_Unsupported = 0x2014.
    package static var specificationByFormatUnsupported: Self { Self(0x2014) }
    /// No_Valid_ObjectInfo = 0x2015.
    package static var noValidObjectInfo: Self { Self(0x2015) }
    /// Invalid_Code_Format = 0x2016.
    package static var invalidCodeFormat: Self { Self(0x2016) }
    /// Unknown_Vendor_Code = 0x2017.
    package static var unknownVendorCode: Self { Self(0x2017) }
    /// Capture_Already_Terminated = 0x2018.
    package static var captureAlreadyTerminated: Self { Self(0x2018) }
    /// Device_Busy = 0x2019: the only response worth retrying as is.
    package static var deviceBusy: Self { Self(0x2019) }
    /// Invalid_ParentObject = 0x201A.
    package static var invalidParentObject: Self { Self(0x201A) }
    /// Invalid_DeviceProp_Format = 0x201B.
    package static var invalidDevicePropFormat: Self { Self(0x201B) }
    /// Invalid_DeviceProp_Value = 0x201C.
    package static var invalidDevicePropValue: Self { Self(0x201C) }
    /// Invalid_Parameter = 0x201D.
    package static var invalidParameter: Self { Self(0x201D) }
    /// Session_Already_Open = 0x201E.
    package static var sessionAlreadyOpen: Self { Self(0x201E) }
    /// Transaction_Cancelled = 0x201F.
    package static var transactionCancelled: Self { Self(0x201F) }
    /// Specification_of_Destination_Unsupported = 0x2020.
    package static var specificationOfDestinationUnsupported: Self { Self(0x2020) }

    /// Whether the code reports success.
    package var isOK: Bool { self == .ok }

    /// Whether trying the same operation again later may succeed (only Device_Busy).
    package var isTransient: Bool { self == .deviceBusy }
}
