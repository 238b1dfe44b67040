#!/usr/bin/python3
"""The phone remote in a real browser: headless Chromium (Debian's chromium + chromium-driver, driven by
Selenium) at a phone's size (390x844) against `hdrshoot serve --camera simulator` or `hdrshoot run --remote`.

    remote_page.py serve HDRSHOOT OUTPUT_DIR [SCREENSHOT.png]
        against `hdrshoot simulate` (a process of its own): plan 1/4 .. 1/1000 with 5 frames, see the plan
        summary, confirm, pause, reload mid-shoot, resume, pause and stop, resume the stopped shoot from the
        page's offer, finish at "15 of 15", the last frame shown; no request to another origin; no horizontal
        scrolling; the Pause button never moves under the finger while the shoot goes on.
        Each pause lands mid-shoot whatever the machine's load: the simulated body is stopped (SIGSTOP) while
        the page pauses, so the shoot cannot run on meanwhile, and continued (SIGCONT) once the page says Paused.
    remote_page.py simulated HDRSHOOT OUTPUT_DIR
        `serve --camera simulator` (the built-in body): the banner says "Ready · simulated camera", the idle
        heading "(simulated camera)", the page and its cards wear the simulated colours; Check camera answers.
    remote_page.py both HDRSHOOT OUTPUT_DIR
        simulated, serve, then run, in one browser (OUTPUT_DIR/simulated, /serve, /run); each says "ok: MODE" or
        fails alone.
    remote_page.py run HDRSHOOT OUTPUT_DIR
        `run --remote` shoots from the terminal (against `hdrshoot simulate`, stopped while the page pauses); the
        page pauses it, then stops it.

Prints one line per step and the figures it measured ("figure: ..."); exits 0 when every check held, 1 with
the reason otherwise. Every process it starts it stops (by its own PID).
"""
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

TIMEOUT = 120
# The hdrshoot binary (serve starts `hdrshoot simulate` with it).
HDRSHOOT = "hdrshoot"
# hdrshoot's standard error, printed when a check fails.
ERRORS = "/dev/null"


def fail(message):
    print("FAIL: " + message, flush=True)
    try:
        with open(ERRORS) as errors:
            print("hdrshoot's standard error:\n" + errors.read()[-3000:], flush=True)
    except OSError:
        pass
    sys.exit(1)


def start(arguments, env_extra):
    global ERRORS
    ERRORS = arguments[arguments.index("--output") + 1] + ".stderr"
    env = dict(os.environ)
    env.update(env_extra)
    process = subprocess.Popen(arguments, stdout=subprocess.PIPE, stderr=open(ERRORS, "w"),
                               stdin=subprocess.DEVNULL,
                               env=env, text=True)
    deadline = time.time() + 60
    while time.time() < deadline:
        line = process.stdout.readline()
        if not line:
            fail("hdrshoot ended before printing the Remote: line")
        match = re.match(r"Remote: (http://[^ ]+/#token=[A-Za-z0-9_-]+)$", line.strip())
        if match:
            return process, match.group(1)
    fail("no Remote: line within 60 s")


def end_children(*children):
    """Ends the processes this script started (by their PID), continued first if a pause left them stopped:
    SIGTERM, then SIGKILL after 30 s. A child that never started (None) or has already exited is passed over."""
    for child in children:
        if child is None or child.poll() is not None:
            continue
        os.kill(child.pid, signal.SIGCONT)
        child.terminate()
        try:
            child.wait(timeout=30)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=390,844",
                     "--disable-dev-shm-usage", "--no-first-run", "--disable-background-networking",
                     "--disable-component-update", "--disable-sync", "--disable-default-apps"]:
        options.add_argument(argument)
    options.add_experimental_option("mobileEmulation", {
        "deviceMetrics": {"width": 390, "height": 844, "pixelRatio": 3.0},
        "userAgent": "Mozilla/5.0 (Linux; Android 14) Mobile"})
    options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def wait_for(driver, what, condition):
    try:
        return WebDriverWait(driver, TIMEOUT, poll_frequency=0.05).until(lambda d: condition(d))
    except Exception:
        fail("timed out waiting for " + what + "; banner: " + text(driver, "banner") + "; error: "
             + text(driver, "error") + "; log: " + text(driver, "log").replace("\n", " | "))


def text(driver, element_id):
    try:
        # textContent, not .text: a section the page hides (the progress once finished) still holds its words.
        return driver.find_element(By.ID, element_id).get_attribute("textContent")
    except Exception:
        return ""


def click(driver, element_id):
    driver.find_element(By.ID, element_id).click()


def click_and_wait_sent(driver, element_id, command):
    """Clicks `element_id` once and waits until the page logs "COMMAND sent" (the server took it). One click:
    the buttons stay where they are while the shoot goes on (checked by `button_moves`), so a click is never
    lost to a reflow, and a click that sends nothing is a failure, not something to click again."""
    before = text(driver, "log").count(command + " sent")
    click(driver, element_id)
    wait_for(driver, "'" + command + " sent' after one click on " + element_id,
             lambda d: text(d, "log").count(command + " sent") > before or "refused" in text(d, "log"))
    if "refused" in text(driver, "log"):
        fail(command + " was refused: " + text(driver, "log").replace("\n", " | "))


WATCH_BUTTONS = """
window.buttonTops=[];
new MutationObserver(()=>{
  const s=document.getElementById('shooting');if(s.classList.contains('hidden'))return;
  const b=document.getElementById('pause').getBoundingClientRect(),top=document.getElementById('banner').getBoundingClientRect();
  const at=Math.round(b.top-top.bottom);const t=window.buttonTops;if(!t.length||t[t.length-1]!==at)t.push(at);
}).observe(document.body,{subtree:true,childList:true,characterData:true,attributes:true});
"""


def button_moves(driver):
    """Fails when the Pause button moved while the shooting section was shown (measured from the banner's bottom
    on every change of the page): a tap aimed at it would have landed elsewhere."""
    tops = driver.execute_script("return window.buttonTops||[]")
    if len(tops) > 1:
        fail("the Pause button moved while shooting (px below the banner): %r" % tops)
    return tops


def started_simulator(output):
    """`hdrshoot simulate` on a free loopback port, the scene interior-window, exposures capped at 20 ms (the
    shoot's time is the page's, not the 4" frame's), its capture log beside OUTPUT_DIR; returns the process, its
    port and the log's path."""
    log = output + ".captures.jsonl"
    said = output + ".simulator"
    process = subprocess.Popen([HDRSHOOT, "simulate", "--port", "0", "--exposure-cap", "0.02", "--scene",
                                "interior-window", "--capture-log", log], stdout=open(said, "w"),
                               stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    deadline = time.time() + 60
    while time.time() < deadline:
        with open(said) as lines:
            match = re.search(r"listening on 127\.0\.0\.1:(\d+)", lines.read())
        if match:
            return process, int(match.group(1)), log
        if process.poll() is not None:
            fail("hdrshoot simulate ended before listening")
        time.sleep(0.02)
    fail("hdrshoot simulate did not listen within 60 s")


def captures(log):
    """How many frames the simulated body fired (one line each in its capture log)."""
    try:
        with open(log) as lines:
            return sum(1 for line in lines if line.strip())
    except OSError:
        return 0


def requested_urls(driver):
    urls = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message.get("method") == "Network.requestWillBeSent":
            urls.append(message["params"]["request"]["url"])
    return urls


def check_origin(driver, origin, token):
    for url in requested_urls(driver):
        if url.startswith("data:") or url.startswith("blob:"):
            continue
        if not url.startswith(origin + "/"):
            fail("the page requested another origin: " + url)
        if token in url.split("#")[0]:
            fail("the token went into a requested URL: " + url)


def peak_rss(pid):
    try:
        with open("/proc/%d/status" % pid) as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown"


def no_horizontal_scroll(driver):
    width = driver.execute_script("return document.documentElement.scrollWidth")
    inner = driver.execute_script("return window.innerWidth")
    if width > inner:
        fail("the page scrolls sideways: %d > %d" % (width, inner))


def check_luma_against_manifest(driver, output):
    """The page's clipped and blocked figures under the last frame are the range check's for that frame: the
    manifest's `luminance` (written by the shoot's range watch from the same file), equal to the last digit."""
    shown = wait_for(driver, "the frame's luma", lambda d: d.execute_script(
        "const l=window.frameLuma;return l&&l.frame===window.frameShown?l:null"))
    set_number, frame_number = (int(x) for x in shown["frame"].split("/"))
    manifests = []
    for root, _, files in os.walk(output):
        if "manifest.json" in files:
            manifests.append(os.path.join(root, "manifest.json"))
    measured = None
    for path in manifests:
        with open(path) as handle:
            for frame in json.load(handle).get("frames", []):
                if frame["set"] == set_number and frame["frame"] == frame_number and frame.get("luminance"):
                    measured = frame["luminance"]
    if measured is None:
        fail("no manifest measures set %d, frame %d (manifests: %s)" % (set_number, frame_number, manifests))
    reading = shown["reading"]
    for key in ["clippedPercent", "blockedPercent", "histogram"]:
        if reading[key] != measured[key]:
            fail("the page's %s for set %d, frame %d is %r; the range check's is %r"
                 % (key, set_number, frame_number, reading[key], measured[key]))
    if (reading["highlightLevel"], reading["shadowLevel"]) != (235, 50):
        fail("the page counts against other levels than the range check's 235/50: %r" % reading)
    print("step: luma of set %d, frame %d equals the range check's: %s%% clipped, %s%% blocked; page: %s"
          % (set_number, frame_number, measured["clippedPercent"], measured["blockedPercent"], text(driver, "clip")),
          flush=True)


def serve(hdrshoot, output, screenshot, shared=None):
    def shot(name):
        # Every screen, beside the main screenshot, for a person to look at (SCREENSHOT-NAME.png).
        if screenshot:
            driver.save_screenshot(screenshot[:-4] + "-" + name + ".png")

    def pause_while_the_body_is_stopped(click_to_go_on, after_captures=0):
        """Clicks `click_to_go_on` (Confirm, Resume) with the simulated body stopped (SIGSTOP) once its capture log
        holds `after_captures` frames (a thread of its own watches the log: a click waits for a slow page, the
        shoot does not), clicks Pause once, waits for the page to say Paused, and lets the body go on (SIGCONT):
        only the frame in flight when it was stopped can still end, so the pause lands mid-shoot however slowly
        the page answers."""
        stopped = threading.Event()

        def stop_the_body():
            while captures(capture_log) < after_captures and not stopped.is_set():
                time.sleep(0.005)
            os.kill(body.pid, signal.SIGSTOP)
            stopped.set()

        watcher = threading.Thread(target=stop_the_body)
        watcher.start()
        try:
            click_to_go_on()
            if not stopped.wait(TIMEOUT):
                fail("the simulated body fired %d frames, not %d, within %d s" % (
                    captures(capture_log), after_captures, TIMEOUT))
            fired = captures(capture_log)
            if fired >= 15:
                fail("the shoot ended before the body was stopped")
            wait_for(driver, "Shooting", lambda d: text(d, "banner").startswith("Shooting"))
            click_and_wait_sent(driver, "pause", "pause")
            wait_for(driver, "Paused", lambda d: "Paused: you" in text(d, "banner"))
        finally:
            stopped.set()
            watcher.join()
            os.kill(body.pid, signal.SIGCONT)
        return fired

    def parked(fired):
        """Waits until the frames fired before the pause are saved and none is left in the camera, and checks
        that at most the frame in flight at the pause fired after it."""
        wait_for(driver, "the frames in the camera downloaded while paused",
                 lambda d: text(d, "queue").endswith(" 0 in the camera") and text(d, "queue").startswith(
                     text(d, "count").split(" of ")[0] + " shot"))
        now = captures(capture_log)
        if now > fired + 1:
            fail("%d frames fired after the pause, not at most the one in flight" % (now - fired))
        return now

    global HDRSHOOT
    HDRSHOOT = hdrshoot
    body, port, capture_log = started_simulator(output)
    process, url = start([hdrshoot, "serve", "--listen", "127.0.0.1:0", "--camera", "127.0.0.1:%d" % port,
                          "--output", output, "--no-network-monitor"], {"HDRSHOOT_TIME_SCALE": "1"})
    origin = url.split("/#")[0]
    token = url.split("#token=")[1]
    driver = shared or browser()
    try:
        driver.get(url)
        wait_for(driver, "Ready", lambda d: text(d, "banner").startswith("Ready"))
        if "#token" in driver.current_url:
            fail("the token stayed in the address bar")
        no_horizontal_scroll(driver)
        driver.execute_script(WATCH_BUTTONS)
        # A real camera's page (this one: a body over the network) is not dressed as the simulator's.
        background, _, tagged = page_colours(driver)
        if background == SIM_BACKGROUND or tagged or "simulated" in text(driver, "banner"):
            fail("a networked camera's page looks simulated: %s, tag shown %s, %s" % (
                background, tagged, text(driver, "banner")))
        print("step: ready, not dressed as the simulator (page %s)" % background, flush=True)
        click(driver, "checkCamera")
        camera = wait_for(driver, "the camera check", lambda d: text(d, "camStatus") if "ready to shoot" in text(
            d, "camStatus") or "Blocked" in text(d, "camStatus") else None)
        print("step: camera: " + camera, flush=True)
        if "battery" not in camera:
            fail("the camera check does not show the battery: " + camera)
        shot("ready")
        for field, value in [("shadow", "1/4"), ("highlight", "1/1000"), ("frames", "5")]:
            element = driver.find_element(By.ID, field)
            element.clear()
            element.send_keys(value)
        click(driver, "shoot")
        plan = wait_for(driver, "the plan", lambda d: text(d, "plan") if "exposures" in text(d, "plan") else None)
        print("step: plan: " + plan, flush=True)
        if "3 sets, 15 exposures" not in plan:
            fail("the plan summary is not 3 sets, 15 exposures: " + plan)
        if "battery" not in text(driver, "planMore") or "shots left" not in text(driver, "planMore"):
            fail("the plan does not show the camera's battery and shots left: " + text(driver, "planMore"))
        shot("plan")
        if not text(driver, "banner").startswith("Confirm"):
            fail("the shoot did not wait for a confirm: " + text(driver, "banner"))
        # A frame fired (one to download while paused), then the pause. The body is stopped as soon as its capture
        # log says so, not when the page does: a slow page may show Shooting after the whole shoot.
        fired = parked(pause_while_the_body_is_stopped(lambda: click(driver, "confirm"), after_captures=1))
        # Frames fired before Pause came are downloaded while paused (they were in the camera); none is fired.
        wait_for(driver, "a frame shown while paused", lambda d: d.execute_script("return window.frameShown"))
        paused_at = text(driver, "count")
        print("step: paused at " + paused_at, flush=True)
        shot("paused")
        button_moves(driver)
        driver.refresh()
        driver.execute_script(WATCH_BUTTONS)
        wait_for(driver, "Paused after a reload", lambda d: "Paused" in text(d, "banner"))
        wait_for(driver, "the count after a reload", lambda d: text(d, "count") != "")
        if text(driver, "count") != paused_at:
            fail("the count moved from %s to %s while paused" % (paused_at, text(driver, "count")))
        wait_for(driver, "the frame shown again after a reload",
                 lambda d: d.execute_script("return window.frameShown"))
        print("step: reloaded, still paused", flush=True)
        if screenshot:
            driver.save_screenshot(screenshot)
            print("step: screenshot " + screenshot + " at " + text(driver, "count"), flush=True)
        if captures(capture_log) != fired:
            fail("a frame fired while paused: %d, then %d" % (fired, captures(capture_log)))
        # Resume and pause again before the next frame (the body stopped meanwhile), then Stop: the shoot ends
        # unfinished, and the page offers it.
        pause_while_the_body_is_stopped(lambda: click_and_wait_sent(driver, "resume", "resume"))
        parked(fired)
        if text(driver, "count") == "15 of 15":
            fail("the shoot finished before the second pause; nothing left to resume")
        button_moves(driver)
        driver.execute_script("window.confirm=()=>true")
        click(driver, "stop")
        wait_for(driver, "Stopped", lambda d: text(d, "banner").startswith("Stopped"))
        offer = wait_for(driver, "the Resume offer", lambda d: text(d, "resumeInfo") if d.find_element(
            By.ID, "resumable").is_displayed() and text(d, "resumeInfo") else None)
        print("step: stopped at %s; offered: %s" % (text(driver, "count"), offer), flush=True)
        shot("stopped")
        if "of 15 saved" not in offer:
            fail("the Resume offer does not say how much is saved: " + offer)
        click(driver, "resumeShoot")
        wait_for(driver, "the resume plan", lambda d: text(d, "banner").startswith("Confirm"))
        print("step: resume proposed: " + text(driver, "plan"), flush=True)
        shot("resume-plan")
        click(driver, "confirm")
        wait_for(driver, "15 of 15", lambda d: text(d, "count") == "15 of 15")
        wait_for(driver, "Finished", lambda d: text(d, "banner").startswith("Finished"))
        wait_for(driver, "the last frame", lambda d: d.execute_script(
            "const i=document.getElementById('frame');return i.complete&&i.naturalWidth>0&&window.frameShown"))
        print("step: finished; last frame " + str(driver.execute_script("return window.frameShown")), flush=True)
        print("step: the Pause button stayed %s px below the banner while shooting" % button_moves(driver), flush=True)
        if "clipped highlights" not in text(driver, "clip"):
            fail("no histogram verdict under the last frame")
        check_luma_against_manifest(driver, output)
        health = wait_for(driver, "the link's health", lambda d: text(d, "health") if "Last camera operation" in text(
            d, "health") and text(d, "slog") else None)
        print("step: link: " + health + " | " + text(driver, "slog").replace("\n", " | "), flush=True)
        shot("finished")
        driver.execute_script("document.getElementById('health').scrollIntoView()")
        shot("finished-link")
        no_horizontal_scroll(driver)
        check_origin(driver, origin, token)
        weight = len(driver.execute_script("return document.documentElement.outerHTML").encode())
        print("figure: page weight (DOM after the shoot) %d bytes" % weight, flush=True)
        delays = []
        for shown in driver.execute_script("return window.shownLog||[]"):
            if shown.get("file") and os.path.exists(shown["file"]):
                delays.append(shown["at"] - os.stat(shown["file"]).st_mtime_ns / 1e6)
        if delays:
            delays.sort()
            p95 = delays[min(len(delays) - 1, int(round(0.95 * (len(delays) - 1))))]
            print("figure: file written to frame shown on the page: %d frames shown, median %.0f ms, p95 %.0f ms, "
                  "max %.0f ms" % (len(delays), delays[len(delays) // 2], p95, delays[-1]), flush=True)
        print("figure: serve's peak RSS (VmHWM) " + peak_rss(process.pid), flush=True)
    finally:
        if not shared:
            driver.quit()
        end_children(process, body)
    print("ok: serve", flush=True)


SIM_BACKGROUND = "rgb(26, 18, 48)"  # body.sim's --bg, #1a1230
SIM_CARD = "rgb(38, 26, 68)"  # body.sim's --card, #261a44


def page_colours(driver):
    """The page's background, the idle section's background, whether the "(simulated camera)" tag shows."""
    return driver.execute_script(
        "const bg=e=>getComputedStyle(e).backgroundColor,t=document.querySelector('#idle .sim-tag');"
        "return [bg(document.body),bg(document.getElementById('idle')),getComputedStyle(t).display!=='none'"
        "&&t.getBoundingClientRect().width>0]")


def start_simulated(hdrshoot, output):
    """`serve --camera simulator` started, up to its Remote: line (`both` starts it while Chromium starts)."""
    return start([hdrshoot, "serve", "--listen", "127.0.0.1:0", "--camera", "simulator", "--output", output,
                  "--no-network-monitor"], {"HDRSHOOT_TIME_SCALE": "50"})


def simulated(hdrshoot, output, shared=None, started=None):
    """`serve --camera simulator` (the built-in body): the page says so in colour and words, the banner's
    "Ready · simulated camera", the idle heading's "(simulated camera)", the background and cards the simulated
    page's; Check camera answers from the built-in body. No shoot: the shoots run against `hdrshoot simulate`."""
    process, url = started or start_simulated(hdrshoot, output)
    driver = shared or browser()
    try:
        driver.get(url)
        banner = wait_for(driver, "Ready", lambda d: text(d, "banner") if text(d, "banner").startswith(
            "Ready") else None)
        print("step: simulated banner: " + banner, flush=True)
        if banner != "Ready · simulated camera":
            fail("the simulated camera's banner is not 'Ready · simulated camera': " + banner)
        background, card, tagged = page_colours(driver)
        print("step: simulated colours: page %s, card %s, tag shown %s" % (background, card, tagged), flush=True)
        if (background, card) != (SIM_BACKGROUND, SIM_CARD):
            fail("the simulated page's colours are %s and %s, not %s and %s" % (
                background, card, SIM_BACKGROUND, SIM_CARD))
        if not tagged or "(simulated camera)" not in text(driver, "idle"):
            fail("the idle heading does not show '(simulated camera)'")
        click(driver, "checkCamera")
        camera = wait_for(driver, "the camera check", lambda d: text(d, "camStatus") if "ready to shoot" in text(
            d, "camStatus") or "Blocked" in text(d, "camStatus") else None)
        print("step: simulated camera: " + camera, flush=True)
        if "ready to shoot" not in camera or "battery" not in camera:
            fail("the built-in body's camera check is not ready with a battery: " + camera)
        no_horizontal_scroll(driver)
        check_origin(driver, url.split("/#")[0], url.split("#token=")[1])
    finally:
        if not shared:
            driver.quit()
        end_children(process)
    print("ok: simulated", flush=True)


def run(hdrshoot, output, shared=None):
    global HDRSHOOT
    HDRSHOOT = hdrshoot
    body, port, capture_log = started_simulator(output)
    # The terminal's shoot starts at once (--confirm): the body is stopped (SIGSTOP) once it fired a frame, by a
    # thread watching its capture log, and goes on (SIGCONT) once the page says Paused.
    stopped = threading.Event()

    def stop_the_body():
        while captures(capture_log) < 1 and not stopped.is_set():
            time.sleep(0.005)
        os.kill(body.pid, signal.SIGSTOP)
        stopped.set()

    watcher = threading.Thread(target=stop_the_body)
    watcher.start()
    process = None
    driver = None
    try:
        process, url = start([hdrshoot, "run", "--camera", "127.0.0.1:%d" % port, "--shadow", "1/4", "--highlight",
                              "1/1000", "--frames", "5", "--confirm", "--no-network-monitor", "--output", output,
                              "--remote", "127.0.0.1:0"], {"HDRSHOOT_TIME_SCALE": "1"})
        if not stopped.wait(TIMEOUT):
            fail("the simulated body fired no frame within %d s" % TIMEOUT)
        if captures(capture_log) >= 15:
            fail("the shoot ended before the body was stopped")
        driver = shared or browser()
        driver.get(url)
        wait_for(driver, "Shooting", lambda d: text(d, "banner").startswith("Shooting"))
        click_and_wait_sent(driver, "pause", "pause")
        wait_for(driver, "Paused", lambda d: "Paused: you" in text(d, "banner"))
        fired = captures(capture_log)
        stopped.set()
        watcher.join()
        os.kill(body.pid, signal.SIGCONT)
        print("step: run --remote paused from the page at " + text(driver, "count"), flush=True)
        driver.execute_script("window.confirm=()=>true")
        click(driver, "stop")
        try:
            code = process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            fail("run did not end after Stop from the page")
        if code != 75:
            fail("run ended with %d after Stop, not 75 (stopped, resumable)" % code)
        if captures(capture_log) > fired + 1:
            fail("%d frames fired after the pause, not at most the one in flight" % (captures(capture_log) - fired))
        print("step: run stopped from the page, exit 75, after %d of 15 frames" % captures(capture_log), flush=True)
    finally:
        stopped.set()
        watcher.join()
        if driver and not shared:
            driver.quit()
        end_children(process, body)
    print("ok: run", flush=True)


def both(hdrshoot, output):
    """`simulated`, `serve`, then `run`, in one browser (Chromium starts once): each in its own output folder, each
    ending in its own "ok: MODE" line or its FAIL line; the exit status is 1 when any failed."""
    # Chromium starts on a thread of its own while the built-in body's serve starts (a second or two each under
    # load); a browser that does not start fails the whole run, as it did when it started alone.
    opened = {}

    def open_browser():
        try:
            opened["driver"] = browser()
        except Exception as error:
            opened["error"] = error

    opener = threading.Thread(target=open_browser)
    opener.start()
    os.makedirs(output + "/simulated", exist_ok=True)
    serving = None
    try:
        serving = start_simulated(hdrshoot, output + "/simulated")
    except SystemExit:
        pass  # its FAIL line is printed; the loop below says "FAIL (simulated)"
    opener.join()
    if "error" in opened:
        if serving and serving[0].poll() is None:
            serving[0].terminate()
            serving[0].wait()
        raise opened["error"]
    driver = opened["driver"]
    failed = serving is None
    try:
        for name, mode in [("simulated", lambda: simulated(hdrshoot, output + "/simulated", driver, serving)
                            if serving else sys.exit(1)),
                           ("serve", lambda: serve(hdrshoot, output + "/serve", None, driver)),
                           ("run", lambda: run(hdrshoot, output + "/run", driver))]:
            os.makedirs(output + "/" + name, exist_ok=True)
            try:
                mode()
            except SystemExit:
                print("FAIL (%s)" % name, flush=True)
                failed = True
    finally:
        driver.quit()
    sys.exit(1 if failed else 0)


def tripod(hdrshoot, output, pages):
    """One run of 3x5 on the simulator with `pages` pages attached; prints the shoot's time, from the line
    "Connected to" to the process's end, each line timed as it arrives (on a thread of its own)."""
    import threading
    arguments = [hdrshoot, "run", "--camera", "simulator", "--shadow", "1/4", "--highlight", "1/1000", "--frames",
                 "5", "--confirm", "--output", output]
    if pages:
        arguments += ["--remote", "127.0.0.1:0"]
        process, url = start(arguments, {"HDRSHOOT_TIME_SCALE": "1"})
    else:
        global ERRORS
        ERRORS = output + ".stderr"
        process = subprocess.Popen(arguments, stdout=subprocess.PIPE, stderr=open(ERRORS, "w"),
                                   stdin=subprocess.DEVNULL, text=True)
    times = {}

    def read_lines():
        for line in process.stdout:
            if line.startswith("Connected to") and "started" not in times:
                times["started"] = time.time()
        times["ended"] = time.time()

    reader = threading.Thread(target=read_lines)
    reader.start()
    drivers = [browser() for _ in range(pages)]
    for driver in drivers:
        driver.get(url)
    code = process.wait()
    reader.join()
    for driver in drivers:
        driver.quit()
    if code != 0 or "started" not in times:
        fail("the shoot ended with %d" % code)
    print("figure: time at the tripod (Connected to exit), %d pages attached: %.2f s"
          % (pages, times["ended"] - times["started"]), flush=True)


if __name__ == "__main__":
    if len(sys.argv) < 4:
        fail(__doc__)
    if sys.argv[1] == "tripod":
        tripod(sys.argv[2], sys.argv[3], int(sys.argv[4]))
    elif sys.argv[1] == "serve":
        serve(sys.argv[2], sys.argv[3], sys.argv[4] if len(sys.argv) > 4 else None)
    elif sys.argv[1] == "simulated":
        simulated(sys.argv[2], sys.argv[3])
    elif sys.argv[1] == "both":
        both(sys.argv[2], sys.argv[3])
    else:
        run(sys.argv[2], sys.argv[3])
