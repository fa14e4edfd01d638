// Parses LogQL expressions with Grafana's own grammar (@grafana/lezer-logql, the parser of
// Grafana's Loki query editor) and reports what each one names, for sf2loki's gate
// (sf2loki-daemon's io.sf2loki.daemon.ops tests).
//
// stdin:  [{"id": "...", "expr": "..."}, ...]
// stdout: [{"id", "errors": [{"at", "near"}], "selectors": [[{"label", "op", "value"}]],
//           "extracted": [{"label", "field"}], "parsers": ["json", ...], "referenced": [...],
//           "ranges": ["1h"], "offsets": ["6h"]}, ...]
// Exit 0 when it could read its input, whatever the expressions hold: the caller judges.
import { parser } from '@grafana/lezer-logql';
import { readFileSync } from 'node:fs';

const unquote = (s) => (s.startsWith('`') ? s.slice(1, -1) : JSON.parse(s));

function analyse(expr) {
  const tree = parser.parse(expr);
  const out = { errors: [], selectors: [], extracted: [], parsers: [], referenced: [], ranges: [], offsets: [] };
  const text = (n) => expr.slice(n.from, n.to);
  const child = (n, name) => n.getChild(name);
  tree.iterate({
    enter(ref) {
      const n = ref.node;
      if (ref.type.isError) {
        out.errors.push({ at: ref.from, near: expr.slice(Math.max(0, ref.from - 20), ref.to + 20) });
        return;
      }
      switch (ref.name) {
        case 'Selector': {
          const matchers = [];
          const walk = n.cursor();
          walk.iterate((m) => {
            if (m.name === 'Matcher') {
              const id = m.node.getChild('Identifier');
              const str = m.node.getChild('String');
              const op = m.node.firstChild?.nextSibling;
              matchers.push({ label: id ? text(id) : '', op: op ? text(op) : '', value: str ? unquote(text(str)) : '' });
              return false;
            }
            return true;
          });
          out.selectors.push(matchers);
          return false;
        }
        case 'LabelParser':
        case 'JsonExpressionParser':
        case 'LogfmtExpressionParser':
          out.parsers.push(text(n.firstChild));
          return true;
        case 'LabelExtractionExpression': {
          const id = child(n, 'Identifier');
          const str = child(n, 'String');
          out.extracted.push({ label: text(id), field: str ? unquote(text(str)) : text(id) });
          return false;
        }
        case 'LabelFilter':
          return true;
        case 'Matcher':
        case 'NumberFilter':
        case 'DurationFilter':
        case 'BytesFilter':
        case 'IpLabelFilter': {
          const id = child(n, 'Identifier');
          if (id) out.referenced.push(text(id));
          return false;
        }
        case 'Grouping':
        case 'Unwrap':
        case 'UnwrapExpr':
        case 'DropLabelsExpr':
        case 'KeepLabelsExpr': {
          n.cursor().iterate((c) => {
            if (c.name === 'Identifier') out.referenced.push(text(c.node));
          });
          return false;
        }
        case 'LineFormatExpr': {
          for (const m of text(n).matchAll(/\{\{[^}]*?\.([A-Za-z_][A-Za-z0-9_]*)/g)) out.referenced.push(m[1]);
          return false;
        }
        case 'Range':
          out.ranges.push(text(child(n, 'Duration')));
          return false;
        case 'OffsetExpr':
          out.offsets.push(text(child(n, 'Duration')));
          return false;
        default:
          return true;
      }
    },
  });
  if (expr.trim() === '') out.errors.push({ at: 0, near: '(empty expression)' });
  return out;
}

const input = JSON.parse(readFileSync(0, 'utf8'));
process.stdout.write(JSON.stringify(input.map(({ id, expr }) => ({ id, ...analyse(expr) }))));
