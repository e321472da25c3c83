/**
 * The in-page half of `bench:web`, added to every page before the app's own scripts (Playwright's
 * addInitScript). Plain browser JavaScript, kept out of the TypeScript build so that no compiled
 * helper ends up in the page. It finds the list only by its roles: a listbox named "Texts" whose
 * rows are options, each showing its text; the seeded texts read "Text number 000123 ...", so a
 * row is "showing" once its text is there, whatever placeholder a paged list shows before.
 * Every time is the page's performance.now() (from the navigation's start) unless said otherwise.
 */
(() => {
  const bench = {};
  window.__copydeskBench = bench;
  if (performance.setResourceTimingBufferSize) performance.setResourceTimingBufferSize(100000);

  const ROW_TEXT = /Text number (\d+)/;
  const list = () => document.querySelector('[role="listbox"][aria-label="Texts"]');
  const rowsOf = (box) => (box ? Array.from(box.querySelectorAll('[role="option"]')) : []);
  /** The rows inside the list's visible area that show a text, with the number of their text. */
  const shownRows = () => {
    const box = list();
    if (!box) return [];
    const view = box.getBoundingClientRect();
    const shown = [];
    for (const row of rowsOf(box)) {
      const rect = row.getBoundingClientRect();
      if (rect.bottom <= view.top || rect.top >= view.bottom || rect.height === 0) continue;
      const match = ROW_TEXT.exec(row.textContent || '');
      if (match) shown.push({ n: Number(match[1]), text: row.textContent });
    }
    return shown;
  };
  bench.shownRows = shownRows;

  /** Calls back with the time just after the next frame was produced (the rAF, then a task after it). */
  const afterPaint = (callback) =>
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => callback(performance.now());
      channel.port2.postMessage(0);
    });
  /** Resolves with the time after the frame in which `check()` first holds (checked every frame), or null at the timeout. */
  const untilShown = (check, timeoutMs) =>
    new Promise((resolve) => {
      const started = performance.now();
      const frame = () => {
        if (check()) afterPaint(resolve);
        else if (performance.now() - started > timeoutMs) resolve(null);
        else requestAnimationFrame(frame);
      };
      requestAnimationFrame(frame);
    });

  // First rows: a mutation observer from the document's start, then the frame that shows them.
  bench.firstRows = null;
  const watchFirstRows = new MutationObserver(() => {
    if (bench.firstRows) return;
    if (shownRows().length === 0) return;
    const dom = performance.now();
    bench.firstRows = { dom, paint: null };
    watchFirstRows.disconnect();
    afterPaint((paint) => {
      bench.firstRows.paint = paint;
    });
  });
  watchFirstRows.observe(document, { childList: true, subtree: true, characterData: true });

  /**
   * What the page had received completely by `until`: bodies (encoded, as sent; none revalidated)
   * and bytes over the wire (headers included), the API's and all.
   */
  bench.bytesUntil = (until) => {
    const entries = [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')];
    const sum = { requests: 0, body: 0, wire: 0, apiRequests: 0, apiBody: 0, apiWire: 0, scriptBody: 0, pending: 0 };
    for (const e of entries) {
      if (e.responseEnd > until) {
        sum.pending += 1;
        continue;
      }
      const api = new URL(e.name).pathname.startsWith('/v2/');
      // A revalidated response (a 304 behind the fetch's 200) reports the size of the body kept
      // from before, but only its headers came over the wire: none of its body was sent.
      const body = e.transferSize > e.encodedBodySize ? e.encodedBodySize : 0;
      sum.requests += 1;
      sum.body += body;
      sum.wire += e.transferSize;
      if (api) {
        sum.apiRequests += 1;
        sum.apiBody += body;
        sum.apiWire += e.transferSize;
      }
      if (e.initiatorType === 'script' || /\.m?js(\?|$)/.test(e.name)) sum.scriptBody += body;
    }
    return sum;
  };

  /**
   * Scrolls the list to `fraction` of its height at once and answers the time until rows of that
   * position show: a visible row whose text number is within `tolerance` of fraction x (size - 1).
   * `any` is the time until any text row showed in view (a list that sorts otherwise still counts there).
   */
  bench.jump = async (fraction, size, tolerance, timeoutMs) => {
    const box = list();
    if (!box) return { ms: null, anyMs: null, seen: [] };
    const target = Math.round(fraction * (size - 1));
    const started = performance.now();
    box.scrollTop = fraction * (box.scrollHeight - box.clientHeight);
    let anyAt = null;
    const at = await untilShown(() => {
      const shown = shownRows();
      if (anyAt === null && shown.length > 0) anyAt = performance.now();
      return shown.some((row) => Math.abs(row.n - target) <= tolerance);
    }, timeoutMs);
    return {
      ms: at === null ? null : at - started,
      anyMs: anyAt === null ? null : anyAt - started,
      seen: shownRows()
        .slice(0, 3)
        .map((row) => row.n),
      target,
    };
  };

  bench.scrollToTop = () => {
    const box = list();
    if (box) box.scrollTop = 0;
  };

  /** The frames' durations (rAF to rAF) over `ms`, scrolling the list by `step` px each frame when `step` > 0; long animation frames beside. */
  bench.frames = (ms, step) =>
    new Promise((resolve) => {
      const box = list();
      const deltas = [];
      const loaf = [];
      let observer = null;
      try {
        observer = new PerformanceObserver((found) => {
          for (const e of found.getEntries()) loaf.push(e.duration);
        });
        observer.observe({ type: 'long-animation-frame' });
      } catch {
        observer = null;
      }
      let last = null;
      const started = performance.now();
      const frame = (now) => {
        if (last !== null) deltas.push(now - last);
        last = now;
        if (now - started >= ms) {
          if (observer) observer.disconnect();
          resolve({ deltas, loaf, scrolled: box ? box.scrollTop : 0 });
          return;
        }
        if (box && step > 0) {
          // At the end of the list, back to the top: the scroll goes on for the whole time.
          if (box.scrollTop + box.clientHeight >= box.scrollHeight - 1) box.scrollTop = 0;
          else box.scrollTop += step;
        }
        requestAnimationFrame(frame);
      };
      requestAnimationFrame(frame);
    });

  // Keystrokes: from each keydown's timestamp (when the input happened) to just after the next
  // frame; Event Timing's entries (16 ms and over) beside, by interaction.
  bench.keys = null;
  bench.keyEvents = null;
  window.addEventListener(
    'keydown',
    (event) => {
      if (!bench.keys) return;
      const keys = bench.keys;
      const from = event.timeStamp;
      afterPaint((at) => keys.push(at - from));
    },
    true,
  );
  bench.startKeys = () => {
    bench.keys = [];
    bench.keyEvents = new Map();
    try {
      const events = bench.keyEvents;
      bench.keyObserver = new PerformanceObserver((found) => {
        for (const e of found.getEntries()) {
          if (!e.interactionId) continue;
          events.set(e.interactionId, Math.max(events.get(e.interactionId) || 0, e.duration));
        }
      });
      bench.keyObserver.observe({ type: 'event', durationThreshold: 16 });
    } catch {
      bench.keyObserver = null;
    }
  };
  bench.stopKeys = () =>
    new Promise((resolve) => {
      // The last keystroke's frame and Event Timing's report (sent after the frame) first.
      setTimeout(() => {
        if (bench.keyObserver) {
          for (const e of bench.keyObserver.takeRecords()) {
            if (e.interactionId)
              bench.keyEvents.set(e.interactionId, Math.max(bench.keyEvents.get(e.interactionId) || 0, e.duration));
          }
          bench.keyObserver.disconnect();
        }
        const result = { keys: bench.keys, eventTiming: Array.from(bench.keyEvents.values()) };
        bench.keys = null;
        resolve(result);
      }, 500);
    });

  /** Main-thread tasks over 50 ms (and long animation frames) for `ms` while nothing is done to the page. */
  bench.idle = (ms) =>
    new Promise((resolve) => {
      const tasks = [];
      const loaf = [];
      const observers = [];
      for (const [type, into] of [
        ['longtask', tasks],
        ['long-animation-frame', loaf],
      ]) {
        try {
          const observer = new PerformanceObserver((found) => {
            for (const e of found.getEntries()) into.push(e.duration);
          });
          observer.observe({ type });
          observers.push(observer);
        } catch {
          // not supported by this browser
        }
      }
      setTimeout(() => {
        for (const observer of observers) {
          for (const e of observer.takeRecords()) (e.entryType === 'longtask' ? tasks : loaf).push(e.duration);
          observer.disconnect();
        }
        resolve({ tasks, loaf });
      }, ms);
    });

  /**
   * Resolves with the wall-clock time (ms since the epoch, as the bench's process reads it) just
   * after the frame in which `token` first shows in the list ('list') or in a text box of the
   * editor ('editor'); null at the timeout. Start it before the change is made.
   */
  bench.watch = (token, where, timeoutMs) => {
    const inList = () => (list()?.textContent || '').includes(token);
    const inEditor = () =>
      Array.from(document.querySelectorAll('[role="textbox"]')).some((box) => (box.textContent || '').includes(token));
    bench.watched = untilShown(where === 'editor' ? inEditor : inList, timeoutMs).then((at) =>
      at === null ? null : performance.timeOrigin + at,
    );
    return true;
  };
})();
