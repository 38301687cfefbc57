/* A small JSON reader for the registry's schema text (base R has none): objects
 * become named lists, arrays lists, strings character(1), numbers double(1),
 * true/false logical(1), null NULL. Recursive descent over a NUL-terminated
 * string; malformed input raises an error naming the offset. */
#include <stdlib.h>
#include <string.h>
#include "weft_r.h"

typedef struct { const char* s; size_t pos; } reader;

static void fail_at(reader* r, const char* what) {
  char detail[128];
  snprintf(detail, sizeof detail, "%s at offset %lu", what, (unsigned long)r->pos);
  weft_r_fail("malformed JSON: %s", detail);
}

static void skip_ws(reader* r) {
  while (r->s[r->pos] == ' ' || r->s[r->pos] == '\n' || r->s[r->pos] == '\t' || r->s[r->pos] == '\r') r->pos++;
}

static SEXP parse_value(reader* r, int depth);

static void put_utf8(char* out, size_t* len, unsigned cp) {
  if (cp < 0x80) out[(*len)++] = (char)cp;
  else if (cp < 0x800) { out[(*len)++] = (char)(0xC0 | (cp >> 6)); out[(*len)++] = (char)(0x80 | (cp & 0x3F)); }
  else if (cp < 0x10000) {
    out[(*len)++] = (char)(0xE0 | (cp >> 12)); out[(*len)++] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[(*len)++] = (char)(0x80 | (cp & 0x3F));
  } else {
    out[(*len)++] = (char)(0xF0 | (cp >> 18)); out[(*len)++] = (char)(0x80 | ((cp >> 12) & 0x3F));
    out[(*len)++] = (char)(0x80 | ((cp >> 6) & 0x3F)); out[(*len)++] = (char)(0x80 | (cp & 0x3F));
  }
}

static unsigned hex4(reader* r) {
  unsigned v = 0;
  for (int i = 0; i < 4; ++i) {
    char c = r->s[r->pos++];
    v <<= 4;
    if (c >= '0' && c <= '9') v |= (unsigned)(c - '0');
    else if (c >= 'a' && c <= 'f') v |= (unsigned)(c - 'a' + 10);
    else if (c >= 'A' && c <= 'F') v |= (unsigned)(c - 'A' + 10);
    else fail_at(r, "bad \\u escape");
  }
  return v;
}

static SEXP parse_string(reader* r) {
  r->pos++;  /* opening quote */
  size_t start = r->pos, cap = 0;
  while (r->s[start + cap] != '"') {
    if (r->s[start + cap] == '\0') fail_at(r, "unterminated string");
    if (r->s[start + cap] == '\\' && r->s[start + cap + 1] != '\0') cap++;
    cap++;
  }
  char* out = R_alloc(cap * 2 + 4, 1);  /* escapes never grow the text beyond this */
  size_t len = 0;
  while (r->s[r->pos] != '"') {
    char c = r->s[r->pos++];
    if (c != '\\') { out[len++] = c; continue; }
    char e = r->s[r->pos++];
    switch (e) {
      case 'n': out[len++] = '\n'; break;
      case 't': out[len++] = '\t'; break;
      case 'r': out[len++] = '\r'; break;
      case 'b': out[len++] = '\b'; break;
      case 'f': out[len++] = '\f'; break;
      case 'u': {
        unsigned cp = hex4(r);
        if (cp >= 0xD800 && cp < 0xDC00 && r->s[r->pos] == '\\' && r->s[r->pos + 1] == 'u') {
          r->pos += 2;
          unsigned lo = hex4(r);
          cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
        }
        put_utf8(out, &len, cp);
        break;
      }
      default: out[len++] = e;  /* \" \\ \/ */
    }
  }
  r->pos++;
  return Rf_ScalarString(Rf_mkCharLenCE(out, (int)len, CE_UTF8));
}

static SEXP parse_array(reader* r, int depth) {
  r->pos++;
  PROTECT_INDEX ii;
  SEXP items = Rf_allocVector(VECSXP, 4);
  PROTECT_WITH_INDEX(items, &ii);
  R_xlen_t n = 0;
  skip_ws(r);
  if (r->s[r->pos] == ']') { r->pos++; }
  else for (;;) {
    SEXP v = PROTECT(parse_value(r, depth + 1));
    if (n == XLENGTH(items)) REPROTECT(items = Rf_lengthgets(items, 2 * n), ii);
    SET_VECTOR_ELT(items, n++, v);
    UNPROTECT(1);
    skip_ws(r);
    if (r->s[r->pos] == ',') { r->pos++; continue; }
    if (r->s[r->pos] == ']') { r->pos++; break; }
    fail_at(r, "expected ',' or ']'");
  }
  SEXP out = Rf_lengthgets(items, n);
  UNPROTECT(1);
  return out;
}

static SEXP parse_object(reader* r, int depth) {
  r->pos++;
  PROTECT_INDEX ii, ni;
  SEXP items = Rf_allocVector(VECSXP, 8);
  PROTECT_WITH_INDEX(items, &ii);
  SEXP names = Rf_allocVector(STRSXP, 8);
  PROTECT_WITH_INDEX(names, &ni);
  R_xlen_t n = 0;
  skip_ws(r);
  if (r->s[r->pos] == '}') { r->pos++; }
  else for (;;) {
    skip_ws(r);
    if (r->s[r->pos] != '"') fail_at(r, "expected a key string");
    SEXP key = PROTECT(parse_string(r));
    skip_ws(r);
    if (r->s[r->pos] != ':') fail_at(r, "expected ':'");
    r->pos++;
    SEXP v = PROTECT(parse_value(r, depth + 1));
    if (n == XLENGTH(items)) {
      REPROTECT(items = Rf_lengthgets(items, 2 * n), ii);
      REPROTECT(names = Rf_lengthgets(names, 2 * n), ni);
    }
    SET_VECTOR_ELT(items, n, v);
    SET_STRING_ELT(names, n, STRING_ELT(key, 0));
    n++;
    UNPROTECT(2);
    skip_ws(r);
    if (r->s[r->pos] == ',') { r->pos++; continue; }
    if (r->s[r->pos] == '}') { r->pos++; break; }
    fail_at(r, "expected ',' or '}'");
  }
  SEXP out = PROTECT(Rf_lengthgets(items, n));
  Rf_setAttrib(out, R_NamesSymbol, Rf_lengthgets(names, n));
  UNPROTECT(3);
  return out;
}

static SEXP parse_value(reader* r, int depth) {
  if (depth > 512) fail_at(r, "nesting too deep");
  skip_ws(r);
  char c = r->s[r->pos];
  if (c == '{') return parse_object(r, depth);
  if (c == '[') return parse_array(r, depth);
  if (c == '"') return parse_string(r);
  if (strncmp(r->s + r->pos, "true", 4) == 0) { r->pos += 4; return Rf_ScalarLogical(1); }
  if (strncmp(r->s + r->pos, "false", 5) == 0) { r->pos += 5; return Rf_ScalarLogical(0); }
  if (strncmp(r->s + r->pos, "null", 4) == 0) { r->pos += 4; return R_NilValue; }
  if (c == '-' || (c >= '0' && c <= '9')) {
    char* end = NULL;
    double v = strtod(r->s + r->pos, &end);
    r->pos = (size_t)(end - r->s);
    return Rf_ScalarReal(v);
  }
  fail_at(r, "unexpected character");
  return R_NilValue;
}

SEXP weft_r_json_parse(const char* text) {
  reader r = {text, 0};
  SEXP v = PROTECT(parse_value(&r, 0));
  skip_ws(&r);
  if (r.s[r.pos] != '\0') fail_at(&r, "trailing text");
  UNPROTECT(1);
  return v;
}

/* .Call entry: parses one JSON string from R. */
SEXP weft_r_json_parse_string(SEXP text) {
  if (!Rf_isString(text) || XLENGTH(text) != 1) weft_r_fail("%s", "JSON text must be one string");
  return weft_r_json_parse(Rf_translateCharUTF8(STRING_ELT(text, 0)));
}
