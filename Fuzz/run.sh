#!/bin/sh
# Builds a fuzz target with libFuzzer + AddressSanitizer and runs it: the PTP/IP codec, EXIF reader and Camera
# Remote API HTTP parser (the default), or with --target luma the JPEG luma decoder (its inputs are slower, so it
# is a target of its own).
#
#   Fuzz/run.sh                       # 10 minutes (default arguments below)
#   Fuzz/run.sh -runs=100000          # any libFuzzer arguments replace the defaults
#   Fuzz/run.sh --target luma -runs=50000
#
# Only the codec's sources go in (ByteCoding, ImageMetadata and the pure PTPIPCodec target, which needs no Posix),
# plus the one HTTP codec (the pure HTTP target), the Camera Remote API's parsers and Posix, whose Errno their error
# carries; the luma target takes ByteCoding,
# ImageMetadata, Exposure and ImageLuminance. Both need nothing but the Swift toolchain, which ships libFuzzer (clang_rt.fuzzer).
set -eu
cd "$(dirname "$0")/.."
target=ptpip
if [ "${1:-}" = "--target" ]; then
    target="${2:?--target needs ptpip or luma}"
    shift 2
fi
out=.build/fuzz
mkdir -p "$out/corpus" "$out/luma-corpus"
flags="-sanitize=fuzzer,address -parse-as-library -O -g -swift-version 6 -package-name hdrshoot"

# ByteCoding as its own module (PTPIPCodec imports it).
swiftc $flags -module-name ByteCoding -emit-module -emit-module-path "$out/ByteCoding.swiftmodule" \
    -wmo -c -o "$out/ByteCoding.o" Sources/ByteCoding/*.swift
# The system-call layer as its own module (CameraRemoteAPIError carries its Errno; no parser calls it).
swiftc $flags -module-name Posix -emit-module -emit-module-path "$out/Posix.swiftmodule" \
    -wmo -c -o "$out/Posix.o" Sources/Posix/*.swift
# The EXIF reader and writer as their own module (the entry point imports it).
swiftc $flags -module-name ImageMetadata -I "$out" -emit-module -emit-module-path "$out/ImageMetadata.swiftmodule" \
    -wmo -c -o "$out/ImageMetadata.o" Sources/ImageMetadata/*.swift
if [ "$target" = luma ]; then
    # The shutter-speed types and the luma decoder as modules, the entry point on its own.
    swiftc $flags -module-name Exposure -emit-module -emit-module-path "$out/Exposure.swiftmodule" \
        -wmo -c -o "$out/Exposure.o" Sources/Exposure/*.swift
    swiftc $flags -module-name ImageLuminance -I "$out" -emit-module \
        -emit-module-path "$out/ImageLuminance.swiftmodule" -wmo -c -o "$out/ImageLuminance.o" \
        Sources/ImageLuminance/*.swift
    swiftc $flags -module-name LumaFuzz -I "$out" Fuzz/LumaFuzzTarget.swift "$out/ByteCoding.o" \
        "$out/ImageMetadata.o" "$out/Exposure.o" "$out/ImageLuminance.o" -o "$out/luma-fuzz"
    if [ $# -eq 0 ]; then
        set -- -max_total_time=600 -print_final_stats=1
    fi
    exec "$out/luma-fuzz" "$out/luma-corpus" "$@"
fi
[ "$target" = ptpip ] || { echo "Fuzz/run.sh: unknown target '$target' (ptpip or luma)" >&2; exit 64; }

# The one HTTP codec (pure) as its own module.
swiftc $flags -module-name HTTP -emit-module -emit-module-path "$out/HTTP.swiftmodule" \
    -wmo -c -o "$out/HTTP.o" Sources/HTTP/*.swift
# The one UPnP description scanner (pure) as its own module (the Camera Remote API's description reads with it).
swiftc $flags -module-name UPnPDescription -emit-module -emit-module-path "$out/UPnPDescription.swiftmodule" \
    -wmo -c -o "$out/UPnPDescription.o" Sources/UPnPDescription/*.swift
# The Camera Remote API's pure parsing as its own module: the device description scanner, its URL type and the
# layer's error (which carries Posix's Errno and wraps the codec's).
swiftc $flags -module-name CameraRemoteAPI -I "$out" -emit-module \
    -emit-module-path "$out/CameraRemoteAPI.swiftmodule" -wmo -c -o "$out/CameraRemoteAPI.o" \
    Sources/CameraRemoteAPI/CameraRemoteAPIError.swift Sources/CameraRemoteAPI/RemoteURL.swift \
    Sources/CameraRemoteAPI/DeviceDescription.swift
# The codec and the entry point as one module.
swiftc $flags -module-name PTPIPCodec -I "$out" \
    Sources/PTPIPCodec/*.swift Sources/PTPIPCodec/Datasets/*.swift Fuzz/FuzzTarget.swift Fuzz/HTTPFuzzTarget.swift \
    "$out/ByteCoding.o" "$out/ImageMetadata.o" "$out/Posix.o" "$out/HTTP.o" "$out/UPnPDescription.o" "$out/CameraRemoteAPI.o" \
    -o "$out/ptpip-fuzz"

# Seed the corpus with real camera bytes when the shared fixtures are there.
for seed in ../shared/fixtures/sony/*.bin; do
    [ -f "$seed" ] && cp "$seed" "$out/corpus/"
done

# Seed HTTP responses (Content-Length, chunked, until close), a request and a device description, so the HTTP side
# starts from well-formed messages instead of waiting for random bytes to spell "HTTP/1.1".
printf 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 21\r\n\r\n{"result":[0],"id":1}' \
    >"$out/corpus/http-length.seed"
printf 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;x=y\r\nhello\r\n0\r\nT: 1\r\n\r\n' \
    >"$out/corpus/http-chunked.seed"
printf 'HTTP/1.0 200 OK\r\n\r\nbody until close' >"$out/corpus/http-close.seed"
printf 'POST /api/shoot HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nContent-Type: application/json\r\nContent-Length: 13\r\n\r\n{"frames": 5}' \
    >"$out/corpus/http-request.seed"
printf '<root><device><friendlyName>A</friendlyName><av:X_ScalarWebAPI_ServiceList><av:X_ScalarWebAPI_Service>%s%s%s' \
    '<av:X_ScalarWebAPI_ServiceType>camera</av:X_ScalarWebAPI_ServiceType>' \
    '<av:X_ScalarWebAPI_ActionList_URL>http://1.2.3.4:8080/sony</av:X_ScalarWebAPI_ActionList_URL>' \
    '</av:X_ScalarWebAPI_Service></av:X_ScalarWebAPI_ServiceList></device></root>' >"$out/corpus/description.seed"

if [ $# -eq 0 ]; then
    set -- -max_total_time=600 -print_final_stats=1
fi
exec "$out/ptpip-fuzz" "$out/corpus" "$@"
