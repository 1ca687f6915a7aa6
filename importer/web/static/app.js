// The page's little script (no build step, no outside code): an upload by drag and drop
// with its progress, a job's live progress (its events, or polling where they fail), and a
// rejected row checked again in place as its cells change. Without it the page works all the same: the forms post as usual and a
// running job's page reloads itself.
"use strict";

function uploadForm() {
  const form = document.getElementById("upload-form");
  if (!form) return;
  const drop = document.getElementById("drop");
  const input = document.getElementById("file");
  const bar = document.getElementById("upload-progress");
  const error = document.getElementById("upload-error");
  const say = (text) => { error.textContent = text; error.hidden = !text; };
  for (const kind of ["dragenter", "dragover"]) {
    drop.addEventListener(kind, (event) => { event.preventDefault(); drop.classList.add("over"); });
  }
  for (const kind of ["dragleave", "drop"]) {
    drop.addEventListener(kind, () => drop.classList.remove("over"));
  }
  drop.addEventListener("drop", (event) => {
    event.preventDefault();
    if (event.dataTransfer && event.dataTransfer.files.length) {
      input.files = event.dataTransfer.files;
    }
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const file = input.files && input.files[0];
    if (!file) { say("Choose a workbook first."); return; }
    const limit = Number(form.dataset.maxMb) * 1024 * 1024;
    if (file.size > limit) {
      say(`The file is larger than this server accepts (${form.dataset.maxMb} MB).`);
      return;
    }
    say("");
    const request = new XMLHttpRequest();
    request.open("POST", form.action);
    request.setRequestHeader("X-Upload", "1");
    bar.hidden = false;
    bar.value = 0;
    request.upload.addEventListener("progress", (progress) => {
      if (progress.lengthComputable) bar.value = (100 * progress.loaded) / progress.total;
    });
    request.addEventListener("load", () => {
      let answer = {};
      try { answer = JSON.parse(request.responseText); } catch (_) { answer = {}; }
      if (request.status < 300 && answer.location) { window.location.assign(answer.location); return; }
      bar.hidden = true;
      say(answer.message || `The upload was refused (${request.status}).`);
    });
    request.addEventListener("error", () => { bar.hidden = true; say("The upload was cut off: try again."); });
    request.send(new FormData(form));
  });
}

function liveProgress() {
  // The job's progress events (EventSource); where there is none, or the server refuses the
  // stream, the page asks for the job every second instead.
  const card = document.getElementById("job");
  if (!card || card.dataset.done === "yes") return;
  const number = (value) => (value === null || value === undefined ? "not counted yet" : value.toLocaleString("en"));
  const show = (job) => {
    const status = document.getElementById("status");
    status.textContent = job.status;
    status.className = `status ${job.status}`;
    document.getElementById("state").textContent = job.state;
    document.getElementById("total").textContent = number(job.total_rows);
    document.getElementById("imported").textContent = number(job.imported ?? job.success_rows);
    document.getElementById("rejected").textContent = number(job.rejected ?? job.failed_rows);
    const rate = document.getElementById("rate");
    if (rate && typeof job.rate === "number") rate.textContent = `${Math.round(job.rate).toLocaleString("en")} rows/s`;
    const bar = document.getElementById("bar");
    if (job.percent !== null) bar.value = job.percent;
    if (job.error) {
      const error = document.getElementById("job-error");
      error.textContent = job.error;
      error.hidden = false;
    }
    if (job.done) window.location.reload();
  };
  const poll = async () => {
    let job;
    try {
      const response = await fetch(`/imports/${card.dataset.job}/progress`, { credentials: "same-origin" });
      if (!response.ok) { setTimeout(poll, 5000); return; }
      job = await response.json();
    } catch (_) { setTimeout(poll, 5000); return; }
    show(job);
    if (!job.done) setTimeout(poll, 1000);
  };
  if (typeof EventSource === "undefined") {
    card.dataset.live = "polling";
    setTimeout(poll, 1000);
    return;
  }
  const source = new EventSource(`/imports/${card.dataset.job}/events`);
  card.dataset.live = "events";
  source.addEventListener("progress", (event) => {
    const job = JSON.parse(event.data);
    if (job.done) source.close();
    show(job);
  });
  source.addEventListener("error", (event) => {
    // The server's own error event (its data says why) or a stream it refused: poll instead.
    // A stream only cut off is opened again by the browser itself.
    if (event.data || source.readyState === EventSource.CLOSED) {
      source.close();
      card.dataset.live = "polling";
      setTimeout(poll, 1000);
    }
  });
}

function showProblems(row, answer) {
  // Text only: a value or a message is never markup.
  const cell = row.querySelector("td.problems");
  const messages = cell.querySelector(".messages");
  const form = cell.querySelector("form.fix");
  messages.replaceChildren();
  for (const problem of answer.problems) {
    const line = document.createElement("div");
    if (problem.column) {
      const name = document.createElement("strong");
      name.textContent = problem.column;
      line.append(name, ": ");
    }
    line.append(problem.message);
    for (const value of problem.suggestions) {
      const use = document.createElement("button");
      use.type = "submit";
      use.className = "small secondary";
      use.name = `use:${problem.column}`;
      use.value = value;
      use.textContent = `Use ${value}`;
      use.setAttribute("form", form.id);
      line.append(" ", use);
    }
    messages.append(line);
  }
  cell.querySelector("[data-fixed]").hidden = !answer.fixed;
  row.classList.toggle("fixed", answer.fixed);
  const bad = new Set(answer.problems.map((problem) => problem.column));
  for (const input of row.querySelectorAll("input.cell")) {
    const column = input.name.slice("cell:".length);
    input.parentElement.className = bad.has(column) ? "bad" : "changed";
  }
}

function fixInPlace() {
  const card = document.getElementById("to-fix");
  if (!card) return;
  const ready = document.getElementById("ready");
  const importFixed = document.getElementById("import-fixed");
  for (const form of card.querySelectorAll("form.fix")) {
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const row = form.closest("tr");
      const body = new FormData(form);
      if (event.submitter && event.submitter.name) {
        body.append(event.submitter.name, event.submitter.value);
        const input = row.querySelector(`input[name="cell:${CSS.escape(event.submitter.name.slice(4))}"]`);
        if (input) input.value = event.submitter.value;
      }
      let answer;
      try {
        const response = await fetch(form.action, { method: "POST", body, headers: { "X-Fix": "1" }, credentials: "same-origin" });
        answer = await response.json();
        if (!response.ok) { showProblems(row, { fixed: false, problems: [{ column: null, message: answer.message, suggestions: [] }] }); return; }
      } catch (_) {
        showProblems(row, { fixed: false, problems: [{ column: null, message: "The server did not answer: try again.", suggestions: [] }] });
        return;
      }
      const checked = answer.rows.find((item) => `row-${item.row}` === row.id);
      if (checked) showProblems(row, checked);
      ready.textContent = answer.ready;
      importFixed.hidden = answer.ready === 0;
    });
  }
}

document.addEventListener("DOMContentLoaded", () => { uploadForm(); liveProgress(); fixInPlace(); });
