(() => {
  const $$ = (s, r = document) => [...r.querySelectorAll(s)];
  // Method filter: hidden configurations' series vanish from every chart; their legend
  // entries fade (a click on one toggles it too).
  const hidden = new Set();
  const apply = () => {
    for (const e of $$('svg [data-config]')) {
      const off = hidden.has(e.dataset.config);
      if (e.classList.contains('key')) e.classList.toggle('off', off);
      else e.style.display = off ? 'none' : '';
    }
    for (const i of $$('#methods input[data-config]')) i.checked = !hidden.has(i.dataset.config);
  };
  const flip = c => { hidden.has(c) ? hidden.delete(c) : hidden.add(c); apply(); };
  for (const i of $$('#methods input[data-config]')) i.addEventListener('change', () => flip(i.dataset.config));
  for (const k of $$('svg .key[data-config]')) k.addEventListener('click', () => flip(k.dataset.config));
  for (const b of $$('#methods button')) b.addEventListener('click', () => {
    hidden.clear();
    if (b.value === 'none') for (const i of $$('#methods input[data-config]')) hidden.add(i.dataset.config);
    apply();
  });
  // Tables: a click on a heading sorts the rows (within each block between group headings);
  // numbers by value (a/b as a fraction, "< x" below x), "–" last.
  const key = t => {
    t = t.trim();
    let m = t.match(/^(\d+)\/(\d+)$/);
    if (m) return +m[2] ? m[1] / m[2] : 0;
    m = t.match(/^<\s*(-?[\d.]+)/);
    if (m) return m[1] / 2;
    m = t.match(/^-?\d+(\.\d+)?(e-?\d+)?/);
    return m ? parseFloat(m[0]) : null;
  };
  const blocks = tb => {
    const out = [[null, []]];
    for (const r of tb.rows) {
      if (r.cells.length === 1 && r.cells[0].colSpan > 1) out.push([r, []]);
      else out[out.length - 1][1].push(r);
    }
    return out;
  };
  for (const t of $$('table')) {
    const heads = t.tHead ? [...t.tHead.rows[0].cells] : [];
    heads.forEach((th, col) => th.addEventListener('click', () => {
      const dir = th.getAttribute('aria-sort') === 'ascending' ? -1 : 1;
      for (const h of heads) h.removeAttribute('aria-sort');
      th.setAttribute('aria-sort', dir > 0 ? 'ascending' : 'descending');
      const num = th.classList.contains('num');
      for (const tb of t.tBodies) for (const [g, rows] of blocks(tb)) {
        const v = r => r.cells[col] ? r.cells[col].textContent : '';
        rows.sort((a, b) => {
          if (num) {
            const x = key(v(a)), y = key(v(b));
            if (x === null || y === null) return (x === null) - (y === null);
            return dir * (x - y);
          }
          return dir * v(a).localeCompare(v(b));
        });
        if (g) tb.appendChild(g);
        for (const r of rows) tb.appendChild(r);
      }
    }));
  }
  // Filters: rows without the text are hidden, and a group heading with no row left.
  for (const w of $$('.filterable')) {
    const input = w.querySelector('input'), t = w.querySelector('table');
    input.addEventListener('input', () => {
      const q = input.value.trim().toLowerCase();
      for (const tb of t.tBodies) for (const [g, rows] of blocks(tb)) {
        let any = false;
        for (const r of rows) {
          const show = !q || r.textContent.toLowerCase().includes(q);
          r.hidden = !show;
          any = any || show;
        }
        if (g) g.hidden = !any;
      }
    });
  }
})();
