"""libsonyapi (an independent Python client of Sony's legacy Camera Remote API) against legacy-simulator.

Called by scripts/remote-api-interop.sh with the device description URL on 127.0.0.1. libsonyapi's
Camera() constructor starts with its own SSDP discovery, a multicast M-SEARCH: that is never called here.
The object is made without its constructor, then given exactly what the constructor would have found,
through libsonyapi's own connect(xml_url); any datagram to an address other than loopback raises.
"""

import socket
import sys
import time

from libsonyapi.camera import Camera


def refuse_non_loopback(original):
    def sendto(self, data, *args):
        address = args[-1]
        host = address[0] if isinstance(address, tuple) else address
        if not (str(host).startswith("127.") or host == "::1"):
            raise RuntimeError("interop: refusing a datagram to %s (loopback only)" % (host,))
        return original(self, data, *args)

    return sendto


socket.socket.sendto = refuse_non_loopback(socket.socket.sendto)


def fail(message):
    print("interop: FAIL: %s" % message, file=sys.stderr)
    sys.exit(1)


def do(camera, method, params=[]):
    """One call through libsonyapi; it prints and returns None on an error answer."""
    response = camera.do(method, params)
    if response is None or "result" not in response:
        fail("%s answered %r" % (method, response))
    return response["result"]


def main(xml_url):
    camera = Camera.__new__(Camera)  # no discover(): no multicast
    camera.xml_url = xml_url
    camera.name, camera.api_version, camera.services = camera.connect(xml_url)
    if "camera" not in camera.services:
        fail("no camera service in %r" % camera.services)
    camera.camera_endpoint_url = camera.services["camera"] + "/camera"
    print("interop: connected to %s (API %s), camera service at %s"
          % (camera.name, camera.api_version, camera.camera_endpoint_url))

    apis = do(camera, "getAvailableApiList")[0]
    print("interop: %d methods before startRecMode" % len(apis))
    if "startRecMode" in apis:
        do(camera, "startRecMode")
        # The body needs a moment after startRecMode; wait (at most 10 s) until it lists actTakePicture.
        deadline = time.monotonic() + 10
        while "actTakePicture" not in apis:
            if time.monotonic() > deadline:
                fail("actTakePicture never became available after startRecMode")
            time.sleep(0.1)
            apis = do(camera, "getAvailableApiList")[0]
    print("interop: %d methods after startRecMode" % len(apis))

    current, candidates = do(camera, "getAvailableShutterSpeed")
    if "1/250" not in candidates:
        fail("1/250 is not among the candidates %r" % candidates)
    do(camera, "setShutterSpeed", ["1/250"])
    deadline = time.monotonic() + 5
    while do(camera, "getShutterSpeed")[0] != "1/250":
        if time.monotonic() > deadline:
            fail("the shutter never became 1/250")
        time.sleep(0.05)
    print("interop: shutter %s -> 1/250 (%d candidates)" % (current, len(candidates)))

    do(camera, "setPostviewImageSize", ["Original"])
    urls = do(camera, "actTakePicture")[0]
    if len(urls) != 1:
        fail("actTakePicture gave %r" % urls)
    image = camera_get(urls[0])
    if image[:2] != b"\xff\xd8" or b"Exif" not in image[:16]:
        fail("the postview is not a JPEG with EXIF")
    print("interop: took a picture, postview %s: %d bytes of JPEG with EXIF" % (urls[0], len(image)))


def camera_get(url):
    import requests

    response = requests.get(url, timeout=10)
    if response.status_code != 200:
        fail("GET %s answered %d" % (url, response.status_code))
    return response.content


if __name__ == "__main__":
    main(sys.argv[1])
