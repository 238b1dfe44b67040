#!/bin/sh
# Builds the PTP/IP codec, EXIF reader and Camera Remote API HTTP parser fuzz target with libFuzzer +
# AddressSanitizer and runs it.
#
#   Fuzz/run.sh                       # 10 minutes (default arguments below)
#   Fuzz/run.sh -runs=100000          # any libFuzzer arguments replace the defaults
#
# Only the codec's sources go in (ByteCoding, ImageMetadata and the PTPIP codec: PTPIPError, Codec/, Datasets/),
# plus Posix, whose Errno PTPIPError carries; the target needs nothing but the Swift toolchain, which ships
# libFuzzer (clang_rt.fuzzer).
set -eu
cd "$(dirname "$0")/.."
out=.build/fuzz
mkdir -p "$out/corpus"
flags="-sanitize=fuzzer,address -parse-as-library -O -g -swift-version 6 -package-name hdrshoot"

# ByteCoding as its own module (PTPIP imports it).
swiftc $flags -module-name ByteCoding -emit-module -emit-module-path "$out/ByteCoding.swiftmodule" \
    -wmo -c -o "$out/ByteCoding.o" Sources/ByteCoding/*.swift
# The system-call layer as its own module (PTPIPError carries its Errno; nothing in the codec calls it).
swiftc $flags -module-name Posix -emit-module -emit-module-path "$out/Posix.swiftmodule" \
    -wmo -c -o "$out/Posix.o" Sources/Posix/*.swift
# The EXIF reader and writer as their own module (the entry point imports it).
swiftc $flags -module-name ImageMetadata -I "$out" -emit-module -emit-module-path "$out/ImageMetadata.swiftmodule" \
    -wmo -c -o "$out/ImageMetadata.o" Sources/ImageMetadata/*.swift
# The Camera Remote API's pure parsing as its own module: the HTTP framer, the device description scanner,
# their URL type and the layer's error (which carries Posix's Errno).
swiftc $flags -module-name CameraRemoteAPI -I "$out" -emit-module \
    -emit-module-path "$out/CameraRemoteAPI.swiftmodule" -wmo -c -o "$out/CameraRemoteAPI.o" \
    Sources/CameraRemoteAPI/CameraRemoteAPIError.swift Sources/CameraRemoteAPI/HTTPFramer.swift \
    Sources/CameraRemoteAPI/HTTPParsers.swift Sources/CameraRemoteAPI/HTTPResponse.swift \
    Sources/CameraRemoteAPI/RemoteURL.swift Sources/CameraRemoteAPI/DeviceDescription.swift
# The codec and the entry point as one module.
swiftc $flags -module-name PTPIP -I "$out" \
    Sources/PTPIP/PTPIPError.swift Sources/PTPIP/Codec/*.swift Sources/PTPIP/Datasets/*.swift Fuzz/FuzzTarget.swift \
    Fuzz/HTTPFuzzTarget.swift \
    "$out/ByteCoding.o" "$out/ImageMetadata.o" "$out/Posix.o" "$out/CameraRemoteAPI.o" -o "$out/ptpip-fuzz"

# Seed the corpus with real camera bytes when the shared fixtures are there.
for seed in ../shared/fixtures/sony/*.bin; do
    [ -f "$seed" ] && cp "$seed" "$out/corpus/"
done

# Seed HTTP responses (Content-Length, chunked, until close) and a device description, so the HTTP side
# starts from well-formed messages instead of waiting for random bytes to spell "HTTP/1.1".
printf 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 21\r\n\r\n{"result":[0],"id":1}' \
    >"$out/corpus/http-length.seed"
printf 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;x=y\r\nhello\r\n0\r\nT: 1\r\n\r\n' \
    >"$out/corpus/http-chunked.seed"
printf 'HTTP/1.0 200 OK\r\n\r\nbody until close' >"$out/corpus/http-close.seed"
printf '<root><device><friendlyName>A</friendlyName><av:X_ScalarWebAPI_ServiceList><av:X_ScalarWebAPI_Service>%s%s%s' \
    '<av:X_ScalarWebAPI_ServiceType>camera</av:X_ScalarWebAPI_ServiceType>' \
    '<av:X_ScalarWebAPI_ActionList_URL>http://1.2.3.4:8080/sony</av:X_ScalarWebAPI_ActionList_URL>' \
    '</av:X_ScalarWebAPI_Service></av:X_ScalarWebAPI_ServiceList></device></root>' >"$out/corpus/description.seed"

if [ $# -eq 0 ]; then
    set -- -max_total_time=600 -print_final_stats=1
fi
exec "$out/ptpip-fuzz" "$out/corpus" "$@"
