import Foundation

/// The one page of the phone remote: inline CSS and JS, nothing from another origin, no build step.
///
/// It reads the token from the URL's fragment (kept in the tab's sessionStorage and taken out of the address
/// bar), follows `/events` (each event the application layer's snapshot), and sends commands as JSON POSTs
/// with `Authorization: Bearer`. The last saved frame comes from `/api/frames/SET/FRAME.jpg`; its luminance
/// histogram, clipped highlights and blocked shadows from `/api/frames/SET/FRAME.json`, the range check's own
/// measurement of the frame (its luma, its levels 235 and 50), so the page and the verdict agree.
/// A simulated camera (`serve --camera simulator`) turns the page's background another colour.
///
/// The shooting section's buttons come first, under its heading: the lines below them fill in with the first
/// progress and grow and shrink with each frame (the exposure countdown comes and goes, a line wraps), and a
/// button below them moved under the finger (a tap aimed at Pause as the shoot started landed on the count).
enum RemotePage {
    /// The page for a real camera.
    static let bytes = Array(html(simulated: false).utf8)
    /// The page for the simulator.
    static let simulatedBytes = Array(html(simulated: true).utf8)

    static func html(simulated: Bool) -> String {
        template.replacingOccurrences(of: "@SIMULATED@", with: simulated ? "sim" : "")
    }

    private static let template = #"""
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width,initial-scale=1">
        <title>hdrshoot</title>
        <style>
        :root{--bg:#111;--fg:#eee;--card:#1d1d1d;--dim:#999;--ok:#2e7d32;--warn:#b26a00;--bad:#b00020;--go:#1565c0}
        body.sim{--bg:#1a1230;--card:#261a44}
        *{box-sizing:border-box}
        body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.35 system-ui,-apple-system,sans-serif;overflow-x:hidden}
        main{max-width:480px;margin:0 auto;padding:8px}
        #banner{padding:12px;border-radius:10px;font-weight:600;font-size:1.1em;background:#444}
        #banner.ready{background:var(--go)}#banner.shooting{background:var(--ok)}#banner.paused{background:var(--warn)}
        #banner.failed{background:var(--bad)}#banner.finished{background:#37474f}
        section{background:var(--card);border-radius:10px;padding:10px;margin-top:8px}
        h2{font-size:.85em;text-transform:uppercase;letter-spacing:.05em;color:var(--dim);margin:0 0 6px}
        label{display:flex;justify-content:space-between;align-items:center;margin:6px 0;gap:8px}
        input{width:9em;font-size:1em;padding:6px;border-radius:6px;border:1px solid #555;background:#000;color:var(--fg)}
        button{font-size:1.05em;padding:12px 10px;border-radius:8px;border:0;background:var(--go);color:#fff;min-width:30%;margin:4px 2px}
        button.stop{background:var(--bad)}button.alt{background:#555}button:disabled{opacity:.35}
        .row{display:flex;flex-wrap:wrap;gap:4px}.big{font-size:1.6em;font-weight:700}.dim{color:var(--dim)}
        .hidden{display:none}#frame{width:100%;border-radius:6px;background:#000;min-height:40px}
        canvas{width:100%;height:70px;background:#000;border-radius:6px}
        pre{white-space:pre-wrap;word-break:break-word;font-size:.8em;margin:0;color:var(--dim)}
        #notes{white-space:pre-wrap;color:#ffb74d;font-size:.9em}
        .sim-tag{display:none}body.sim .sim-tag{display:inline}
        </style></head>
        <body class="@SIMULATED@"><main>
        <div id="banner" role="status">Connecting…</div>
        <section id="idle" class="hidden"><h2>New bracket <span class="sim-tag">(simulated camera)</span></h2>
        <label>Shadow <input id="shadow" value="1/4" inputmode="text" autocomplete="off"></label>
        <label>Highlight <input id="highlight" value="1/1000" inputmode="text" autocomplete="off"></label>
        <label>Frames <input id="frames" value="5" inputmode="numeric" autocomplete="off"></label>
        <label>EV <input id="ev" value="" placeholder="auto" inputmode="decimal" autocomplete="off"></label>
        <div class="row"><button id="shoot">Shoot</button><button id="checkCamera" class="alt">Check camera</button></div>
        <div id="camStatus" class="dim"></div>
        <div id="resumable" class="hidden"><div id="resumeInfo" class="dim"></div><div class="row"><button id="resumeShoot" class="alt">Resume</button></div></div>
        </section>
        <section id="proposed" class="hidden"><h2>Plan</h2><div id="plan" class="big"></div><div id="planMore" class="dim"></div>
        <div class="row"><button id="confirm">Confirm</button><button id="decline" class="alt">Decline</button></div></section>
        <section id="shooting" class="hidden"><h2>Shooting</h2>
        <div class="row"><button id="pause">Pause</button><button id="resume" class="alt">Resume</button><button id="stop" class="stop">Stop</button></div>
        <div id="count" class="big"></div>
        <div id="where"></div><div id="clock" class="dim"></div><div id="queue" class="dim"></div><div id="cam" class="dim"></div></section>
        <section id="done" class="hidden"><h2>Result</h2><div id="result"></div></section>
        <section id="last" class="hidden"><h2>Last frame</h2><img id="frame" alt="last saved frame">
        <div id="exposure" class="dim"></div><canvas id="hist" width="256" height="70"></canvas><div id="clip" class="dim"></div>
        <pre id="ranges"></pre></section>
        <section><h2>Link</h2><div id="link" class="dim">–</div><div id="health" class="dim"></div><div id="notes"></div><pre id="slog"></pre><pre id="log"></pre></section>
        <div id="error" role="alert" class="dim"></div>
        </main>
        <script>
        "use strict";
        const $=id=>document.getElementById(id);
        let token=sessionStorage.getItem("hdrshoot-token")||"";
        const m=/token=([A-Za-z0-9_-]+)/.exec(location.hash);
        if(m){token=m[1];sessionStorage.setItem("hdrshoot-token",token);history.replaceState(null,"",location.pathname);}
        let snap=null,lastFrame="",lastEventAt=0,phaseSince=0,phaseKey="",events=0,logLines=[];
        function show(id,on){$(id).classList.toggle("hidden",!on);}
        function log(t){logLines.push(new Date().toLocaleTimeString()+" "+t);logLines=logLines.slice(-6);$("log").textContent=logLines.join("\n");}
        function secs(s){if(s==null)return"?";s=Math.max(0,Math.round(s));return s<90?s+" s":Math.floor(s/60)+" min "+(s%60)+" s";}
        function speedSeconds(t){if(!t)return 0;if(t.indexOf("/")>0){const p=t.split("/");return +p[0]/+p[1];}return parseFloat(t);}
        async function post(path,body){
          $("error").textContent="";
          try{const r=await fetch(path,{method:"POST",headers:{"Content-Type":"application/json","Authorization":"Bearer "+token},body:JSON.stringify(body||{})});
            const j=await r.json().catch(()=>({ok:r.ok,message:r.statusText}));
            if(!r.ok||!j.ok){$("error").textContent=(j.message||("HTTP "+r.status));log("refused: "+(j.message||r.status));}
            else log(path.replace("/api/","")+" sent");
          }catch(e){$("error").textContent="No answer from hdrshoot: "+e;}
        }
        const stopWords={stopRequested:"by you",cancelled:"interrupted",failed:"an error",reconnectGaveUp:"the camera did not come back",recordingFailed:"the journal could not be written"};
        function banner(s){
          const b=$("banner");let cls="",t="";
          const holds=(s.holds||[]).map(h=>({user:"you",network:"Wi-Fi lost",connection:"reconnecting to the camera",other:"camera busy"}[h.reason]||h.reason)+(h.detail?" ("+h.detail+")":""));
          switch(s.state){
            case "idle":cls="ready";t="Ready";break;
            case "connecting":t="Connecting to the camera…";break;
            case "proposed":cls="ready";t="Confirm the plan";break;
            case "asking":cls="paused";t=(s.question&&s.question.text)||"A question waits";break;
            case "shooting":case "waiting":
              if(holds.length){cls="paused";t="Paused: "+holds.join(", ");}else{cls="shooting";t=s.stopping?"Stopping after this frame":"Shooting";}break;
            case "finished":{const f=s.finished||{};cls=f.complete?"finished":"failed";t=f.complete?"Finished":"Stopped"+(f.stopReason?": "+(stopWords[f.stopReason]||f.stopReason):"")+(f.message&&!f.complete?" · "+f.message:"");break;}
            default:t=s.state;}
          if(document.body.classList.contains("sim"))t+=" · simulated camera";
          b.className=cls;b.textContent=t;
        }
        let offerFor="";
        async function offer(key){
          if(key===offerFor)return;offerFor=key;
          try{const r=await fetch("/api/resumable");const j=await r.json();const o=j.shoot;
            show("resumable",!!o);
            if(o){$("resumeInfo").textContent="Unfinished: "+o.folder+", "+o.saved+" of "+o.total+" saved";$("resumeShoot").dataset.id=o.id;}
          }catch(e){offerFor="";}
        }
        function render(s){
          snap=s;banner(s);
          const idle=s.state==="idle"||s.state==="finished";
          if(idle)offer(s.state+"/"+JSON.stringify(s.finished||{}));
          if(s.state==="finished")health();
          show("idle",idle);show("proposed",s.state==="proposed");
          show("shooting",s.state==="shooting"||s.state==="waiting"||s.state==="asking");show("done",s.state==="finished");
          const sum=s.summary;
          if(sum){
            const parts=sum.captured!=null?["Resume: "+(sum.exposures-sum.captured)+" of "+sum.exposures+" exposures left"+(sum.start?", from set "+sum.start.set+", frame "+sum.start.frame:"")+"."]:[(sum.sets!=null?sum.sets+" sets, ":"")+sum.exposures+" exposures."];
            if(sum.longestExposureSeconds!=null)parts.push("Longest exposure: "+fmtSpeed(sum.longestExposureSeconds)+".");
            if(sum.estimatedSeconds!=null)parts.push("Estimated time: ~"+secs(sum.estimatedSeconds)+".");
            $("plan").textContent=parts.join(" ");
            const more=[];
            if(sum.camera)more.push(camLine(sum.camera));
            (sum.substitutions||[]).forEach(x=>more.push(x.planned+" → "+x.used));
            (sum.blockers||[]).forEach(x=>more.push("Blocked: "+(x.sentence||x)));
            (sum.warnings||[]).forEach(x=>more.push(x));
            $("planMore").textContent=more.join(" · ");
            $("confirm").disabled=(sum.blockers||[]).length>0;
          }
          $("cam").textContent=sum&&sum.camera?camLine(sum.camera):"";
          const p=s.progress;
          if(p){
            $("count").textContent=p.completed+" of "+p.total;
            $("where").textContent="Set "+p.set+" of "+p.sets+", frame "+p.frame+" of "+p.framesInSet+" · "+p.speed+(p.setting&&p.setting!==p.speed?" ("+p.setting+")":"")+" · "+p.phase;
            const key=p.set+"/"+p.frame+"/"+p.phase;if(key!==phaseKey){phaseKey=key;phaseSince=Date.now();}
            const inCamera=p.inCamera!=null?p.inCamera:((p.phase==="inCamera"||p.phase==="downloading")?1:0);
            const fired=p.fired!=null?p.fired:p.completed+inCamera;
            $("queue").textContent=fired+" shot, "+p.completed+" saved, "+inCamera+" in the camera";
            if(p.phase==="saved"){const f=p.set+"/"+p.frame;if(f!==lastFrame){lastFrame=f;loadFrame(p);}}
          }
          $("pause").disabled=(s.holds||[]).some(h=>h.reason==="user");
          $("resume").disabled=!(s.holds||[]).some(h=>h.reason==="user");
          if(s.finished){const f=s.finished;$("result").textContent=(f.message||"")+" "+f.completed+" of "+f.total+" saved.";}
          $("ranges").textContent=(s.rangeChecks||[]).map(r=>r.line).join("\n");
          tick();
        }
        function camLine(c){return c.model+" at "+c.address+(c.batteryPercent!=null?" · battery "+c.batteryPercent+" %":"")+(c.remainingShots!=null?" · "+c.remainingShots+" shots left":"");}
        let linkBusy=false;
        async function health(){
          if(linkBusy||!snap||(snap.state==="idle"&&!snap.finished))return;linkBusy=true;
          try{const r=await fetch("/api/link");const j=await r.json();const h=j.link;
            if(h){$("health").textContent=(h.lastOperationMilliseconds!=null?"Last camera operation: "+(h.lastOperation||"?")+", "+(Math.round(h.lastOperationMilliseconds*10)/10)+" ms · ":"")+h.reconnects+" reconnect"+(h.reconnects===1?"":"s");
              $("notes").textContent=(h.notes||[]).join("\n");$("slog").textContent=(h.lines||[]).join("\n");}
          }catch(e){}finally{linkBusy=false;}
        }
        setInterval(health,2000);
        function fmtSpeed(x){return x>=1?(Math.round(x*10)/10)+"\"":"1/"+Math.round(1/x);}
        function tick(){
          if(!snap)return;
          const p=snap.progress,sum=snap.summary;
          if(p&&(snap.state==="shooting")){
            const el=(Date.now()-phaseSince)/1000,ex=speedSeconds(p.speed);
            let t=p.phase==="capturing"&&ex>=1?"Exposing "+p.speed+": "+secs(el)+" elapsed, "+secs(Math.max(0,ex-el))+" left":"";
            if(sum&&sum.estimatedSeconds!=null&&p.total)t+=(t?" · ":"")+"~"+secs(sum.estimatedSeconds*(p.total-p.completed)/p.total)+" left at the tripod";
            $("clock").textContent=t;
          }
          $("link").textContent=lastEventAt?("Live · "+events+" update"+(events===1?"":"s")+" · last "+secs((Date.now()-lastEventAt)/1000)+" ago"):"Not connected";
        }
        setInterval(tick,1000);
        function loadFrame(p){
          const img=$("frame");show("last",true);
          img.onload=()=>{luma(p);window.frameShown=p.set+"/"+p.frame;(window.shownLog=window.shownLog||[]).push({file:(p.files||[])[0],at:Date.now()});};
          img.src="/api/frames/"+p.set+"/"+p.frame+".jpg";
          $("exposure").textContent="Set "+p.set+", frame "+p.frame+" · "+(p.actualSpeed||p.speed);
        }
        function pct(v){return (+v.toFixed(v<0.1?2:v<10?1:0))+" %";}
        async function luma(p){
          const at=p.set+"/"+p.frame;
          try{const r=await fetch("/api/frames/"+at+".json");if(!r.ok){$("clip").textContent="";return;}
            const j=await r.json();if(lastFrame!==at)return;window.frameLuma={frame:at,reading:j};
            const b=j.histogram,hc=$("hist"),g=hc.getContext("2d"),max=Math.max(...b.slice(1,b.length-1),1);g.clearRect(0,0,256,70);
            for(let i=0;i<b.length;i++){g.fillStyle=4*i>j.highlightLevel?"#e53935":4*i+4<=j.shadowLevel?"#1e88e5":"#ccc";const bh=Math.min(70,70*b[i]/max);g.fillRect(4*i,70-bh,4,bh);}
            $("clip").textContent="This frame: clipped highlights "+pct(j.clippedPercent)+" (above "+j.highlightLevel+") · blocked shadows "+pct(j.blockedPercent)+" (below "+j.shadowLevel+")";
          }catch(e){$("clip").textContent="";}
        }
        $("shoot").onclick=()=>{const b={shadow:$("shadow").value.trim(),highlight:$("highlight").value.trim()};
          const f=parseInt($("frames").value,10);if(f)b.frames=f;const e=parseFloat($("ev").value);if(e)b.ev=e;post("/api/shoot",b);};
        $("checkCamera").onclick=async()=>{
          $("camStatus").textContent="Checking the camera…";$("checkCamera").disabled=true;
          try{const r=await fetch("/api/check-camera",{method:"POST",headers:{"Content-Type":"application/json","Authorization":"Bearer "+token},body:"{}"});
            const j=await r.json().catch(()=>({ok:false,message:"HTTP "+r.status}));
            $("camStatus").textContent=j.ok?camLine(j.camera)+" · "+((j.blockers||[]).length?"Blocked: "+j.blockers.join(" · "):"ready to shoot"):(j.message||"HTTP "+r.status);
          }catch(e){$("camStatus").textContent="No answer from hdrshoot: "+e;}finally{$("checkCamera").disabled=false;}
        };
        $("resumeShoot").onclick=()=>post("/api/shoot",{resume:true,id:$("resumeShoot").dataset.id});
        $("confirm").onclick=()=>post("/api/confirm");
        $("decline").onclick=()=>post("/api/decline");
        $("pause").onclick=()=>post("/api/pause");
        $("resume").onclick=()=>post("/api/resume");
        $("stop").onclick=()=>{if(confirm("Stop the shoot after the current frame?"))post("/api/stop");};
                function connect(){
          const es=new EventSource("/events");
          es.onopen=()=>log("connected");
          es.onmessage=e=>{lastEventAt=Date.now();events++;try{render(JSON.parse(e.data));}catch(x){log("bad update: "+x);}};
          es.onerror=()=>{$("banner").textContent="Connection to hdrshoot lost; retrying…";$("banner").className="failed";};
        }
        connect();
        </script></body></html>
        """#
}
