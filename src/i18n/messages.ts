// Localized error messages, keyed by error code (or `CODE.variant`). `{name}` takes a parameter.
import type { MessageParams } from '../domain/errors.ts';
import { type Locale, type LocalizedText, localize } from './locales.ts';

const MESSAGES: Record<string, LocalizedText> = {
  'VALIDATION_FAILED.required': {
    'en-GB': "Field '{field}' is required.",
    'de-DE': "Das Feld '{field}' ist erforderlich.",
    'zh-CN': "字段 '{field}' 为必填项。",
  },
  'VALIDATION_FAILED.type': {
    'en-GB': "Field '{field}' must be of type {expected}.",
    'de-DE': "Das Feld '{field}' muss vom Typ {expected} sein.",
    'zh-CN': "字段 '{field}' 的类型必须为 {expected}。",
  },
  'VALIDATION_FAILED.minimum': {
    'en-GB': "Field '{field}' must be at least {limit}.",
    'de-DE': "Das Feld '{field}' muss mindestens {limit} sein.",
    'zh-CN': "字段 '{field}' 不能小于 {limit}。",
  },
  'VALIDATION_FAILED.maximum': {
    'en-GB': "Field '{field}' must be at most {limit}.",
    'de-DE': "Das Feld '{field}' darf höchstens {limit} sein.",
    'zh-CN': "字段 '{field}' 不能大于 {limit}。",
  },
  'VALIDATION_FAILED.minLength': {
    'en-GB': "Field '{field}' must have at least {limit} characters.",
    'de-DE': "Das Feld '{field}' muss mindestens {limit} Zeichen lang sein.",
    'zh-CN': "字段 '{field}' 至少需要 {limit} 个字符。",
  },
  'VALIDATION_FAILED.maxLength': {
    'en-GB': "Field '{field}' must have at most {limit} characters.",
    'de-DE': "Das Feld '{field}' darf höchstens {limit} Zeichen lang sein.",
    'zh-CN': "字段 '{field}' 最多只能有 {limit} 个字符。",
  },
  'VALIDATION_FAILED.minItems': {
    'en-GB': "Field '{field}' must have at least {limit} entries.",
    'de-DE': "Das Feld '{field}' muss mindestens {limit} Einträge haben.",
    'zh-CN': "字段 '{field}' 至少需要 {limit} 个条目。",
  },
  'VALIDATION_FAILED.maxItems': {
    'en-GB': "Field '{field}' must have at most {limit} entries.",
    'de-DE': "Das Feld '{field}' darf höchstens {limit} Einträge haben.",
    'zh-CN': "字段 '{field}' 最多只能有 {limit} 个条目。",
  },
  'VALIDATION_FAILED.format': {
    'en-GB': "Field '{field}' must be a valid {format}.",
    'de-DE': "Das Feld '{field}' muss ein gültiges {format} sein.",
    'zh-CN': "字段 '{field}' 必须是有效的 {format}。",
  },
  'VALIDATION_FAILED.enum': {
    'en-GB': "Field '{field}' must be one of: {allowed}.",
    'de-DE': "Das Feld '{field}' muss einer dieser Werte sein: {allowed}.",
    'zh-CN': "字段 '{field}' 必须是以下值之一：{allowed}。",
  },
  'VALIDATION_FAILED.pattern': {
    'en-GB': "Field '{field}' has an invalid format.",
    'de-DE': "Das Feld '{field}' hat ein ungültiges Format.",
    'zh-CN': "字段 '{field}' 的格式无效。",
  },
  'VALIDATION_FAILED.character': {
    'en-GB': "Field '{field}' must not contain the character U+0000.",
    'de-DE': "Das Feld '{field}' darf das Zeichen U+0000 nicht enthalten.",
    'zh-CN': "字段 '{field}' 不能包含字符 U+0000。",
  },
  'VALIDATION_FAILED.surrogate': {
    'en-GB': "Field '{field}' must not contain a lone UTF-16 surrogate (\\uD800-\\uDFFF).",
    'de-DE': "Das Feld '{field}' darf kein einzelnes UTF-16-Surrogat (\\uD800-\\uDFFF) enthalten.",
    'zh-CN': "字段 '{field}' 不能包含单独的 UTF-16 代理项（\\uD800-\\uDFFF）。",
  },
  'VALIDATION_FAILED.finite': {
    'en-GB': "Field '{field}' must be a finite number (at most about 1.8e308).",
    'de-DE': "Das Feld '{field}' muss eine endliche Zahl sein (höchstens etwa 1,8e308).",
    'zh-CN': "字段 '{field}' 必须是有限数（最大约 1.8e308）。",
  },
  'VALIDATION_FAILED.encoding': {
    'en-GB': "Parameter '{field}' is not percent-encoded UTF-8.",
    'de-DE': "Der Parameter '{field}' ist kein prozentkodiertes UTF-8.",
    'zh-CN': "参数 '{field}' 不是百分号编码的 UTF-8。",
  },
  'VALIDATION_FAILED.value': {
    'en-GB': "Field '{field}' is invalid: {detail}.",
    'de-DE': "Das Feld '{field}' ist ungültig: {detail}.",
    'zh-CN': "字段 '{field}' 无效：{detail}。",
  },
  'VALIDATION_FAILED.body': {
    'en-GB': 'The request body must be a JSON object.',
    'de-DE': 'Der Request-Body muss ein JSON-Objekt sein.',
    'zh-CN': '请求体必须是 JSON 对象。',
  },
  UNKNOWN_FIELD: {
    'en-GB': "Field '{field}' is not allowed here.",
    'de-DE': "Das Feld '{field}' ist hier nicht erlaubt.",
    'zh-CN': "此处不允许字段 '{field}'。",
  },
  UNKNOWN_QUERY_PARAMETER: {
    'en-GB': "Query parameter '{field}' is not supported here.",
    'de-DE': "Der Query-Parameter '{field}' wird hier nicht unterstützt.",
    'zh-CN': "此处不支持查询参数 '{field}'。",
  },
  MALFORMED_JSON: {
    'en-GB': 'The request body is not valid JSON.',
    'de-DE': 'Der Request-Body ist kein gültiges JSON.',
    'zh-CN': '请求体不是有效的 JSON。',
  },
  'MALFORMED_JSON.encoding': {
    'en-GB': 'The request body is not valid UTF-8.',
    'de-DE': 'Der Request-Body ist kein gültiges UTF-8.',
    'zh-CN': '请求体不是有效的 UTF-8。',
  },
  UNKNOWN_EMBED: {
    'en-GB': 'Cannot embed {names}; embeddable here: {allowed}.',
    'de-DE': 'Nicht einbettbar: {names}; hier einbettbar: {allowed}.',
    'zh-CN': '无法嵌入 {names}；此处可嵌入：{allowed}。',
  },
  INVALID_REFERENCE: {
    'en-GB': "Field '{field}' refers to '{id}', which is not an existing {expected}.",
    'de-DE': "Das Feld '{field}' verweist auf '{id}', das kein vorhandenes {expected} ist.",
    'zh-CN': "字段 '{field}' 引用的 '{id}' 不是已存在的 {expected}。",
  },
  ALREADY_EXISTS: {
    'en-GB': "Another resource already has {field} '{value}'.",
    'de-DE': "Eine andere Ressource hat bereits {field} '{value}'.",
    'zh-CN': "已有其他资源的 {field} 为 '{value}'。",
  },
  RESOURCE_IN_USE: {
    'en-GB': "The {resource} '{id}' is still referenced by {by}.",
    'de-DE': "{resource} '{id}' wird noch von {by} referenziert.",
    'zh-CN': "{resource} '{id}' 仍被 {by} 引用。",
  },
  REQUEST_TIMEOUT: {
    'en-GB': 'The request did not arrive in time: headers and body must be sent within the server timeouts.',
    'de-DE':
      'Die Anfrage kam nicht rechtzeitig an: Header und Body müssen innerhalb der Zeitlimits des Servers gesendet werden.',
    'zh-CN': '请求未能及时到达：请求头和请求体必须在服务器超时时间内发送。',
  },
  HEADERS_TOO_LARGE: {
    'en-GB': 'The request headers are too large.',
    'de-DE': 'Die Header der Anfrage sind zu groß.',
    'zh-CN': '请求头过大。',
  },
  BAD_REQUEST: {
    'en-GB': 'The request cannot be served: {detail}.',
    'de-DE': 'Die Anfrage kann nicht bearbeitet werden: {detail}.',
    'zh-CN': '无法处理该请求：{detail}。',
  },
  ID_MISMATCH: {
    'en-GB': "The id in the body ('{bodyId}') differs from the id in the path ('{pathId}').",
    'de-DE': "Die ID im Body ('{bodyId}') weicht von der ID im Pfad ('{pathId}') ab.",
    'zh-CN': "请求体中的 id（'{bodyId}'）与路径中的 id（'{pathId}'）不一致。",
  },
  READ_ONLY_PROPERTY: {
    'en-GB': "Property '{field}' is read-only: send it unchanged or leave it out.",
    'de-DE': "Die Eigenschaft '{field}' ist schreibgeschützt: unverändert senden oder weglassen.",
    'zh-CN': "属性 '{field}' 为只读：请原样发送或省略。",
  },
  INVALID_TRANSITION: {
    'en-GB': "The {resource} '{id}' cannot change from {current} to {requested}; allowed: {allowed}.",
    'de-DE': "{resource} '{id}' kann nicht von {current} nach {requested} wechseln; erlaubt: {allowed}.",
    'zh-CN': "{resource} '{id}' 不能从 {current} 变为 {requested}；允许：{allowed}。",
  },
  'INVALID_TRANSITION.closed': {
    'en-GB': "The ticket '{id}' is {current}: reopen it (REOPENED) before this change ({requested}).",
    'de-DE': "Das Ticket '{id}' ist {current}: vor dieser Änderung ({requested}) wieder öffnen (REOPENED).",
    'zh-CN': "工单 '{id}' 处于 {current} 状态：请先重新打开（REOPENED）再进行此更改（{requested}）。",
  },
  UNAUTHORIZED: {
    'en-GB': 'Authentication required: send an access token as "Authorization: Bearer <token>".',
    'de-DE': 'Anmeldung erforderlich: Senden Sie ein Access-Token als "Authorization: Bearer <token>".',
    'zh-CN': '需要身份验证：请以 "Authorization: Bearer <token>" 发送访问令牌。',
  },
  INVALID_TOKEN: {
    'en-GB': 'The access token is invalid.',
    'de-DE': 'Das Access-Token ist ungültig.',
    'zh-CN': '访问令牌无效。',
  },
  EXPIRED_TOKEN: {
    'en-GB': 'The access token has expired; request a new one.',
    'de-DE': 'Das Access-Token ist abgelaufen; fordern Sie ein neues an.',
    'zh-CN': '访问令牌已过期，请重新获取。',
  },
  INSUFFICIENT_SCOPE: {
    'en-GB': "This request needs the scope '{scope}', which the access token does not grant.",
    'de-DE': "Diese Anfrage benötigt den Scope '{scope}', den das Access-Token nicht gewährt.",
    'zh-CN': "此请求需要访问令牌未授予的范围 '{scope}'。",
  },
  NOT_FOUND: {
    'en-GB': "There is no {resource} with id '{id}'.",
    'de-DE': "Es gibt kein {resource} mit der ID '{id}'.",
    'zh-CN': "不存在 id 为 '{id}' 的 {resource}。",
  },
  ROUTE_NOT_FOUND: {
    'en-GB': 'There is no resource at {method} {path}.',
    'de-DE': 'Unter {method} {path} gibt es keine Ressource.',
    'zh-CN': '{method} {path} 下没有资源。',
  },
  METHOD_NOT_ALLOWED: {
    'en-GB': 'Method {method} is not allowed here; allowed: {allowed}.',
    'de-DE': 'Die Methode {method} ist hier nicht erlaubt; erlaubt: {allowed}.',
    'zh-CN': '此处不允许使用 {method} 方法；允许：{allowed}。',
  },
  PAYLOAD_TOO_LARGE: {
    'en-GB': 'The request body is larger than {limit} bytes.',
    'de-DE': 'Der Request-Body ist größer als {limit} Bytes.',
    'zh-CN': '请求体超过 {limit} 字节。',
  },
  'PAYLOAD_TOO_LARGE.field': {
    'en-GB': "Field '{field}' is larger than {limit} bytes of JSON.",
    'de-DE': "Das Feld '{field}' ist größer als {limit} Bytes JSON.",
    'zh-CN': "字段 '{field}' 超过 {limit} 字节的 JSON。",
  },
  UNSUPPORTED_MEDIA_TYPE: {
    'en-GB': "Content-Type '{contentType}' is not supported; send application/json.",
    'de-DE': "Content-Type '{contentType}' wird nicht unterstützt; senden Sie application/json.",
    'zh-CN': "不支持 Content-Type '{contentType}'；请发送 application/json。",
  },
  'UNSUPPORTED_MEDIA_TYPE.encoding': {
    'en-GB': "Content-Encoding '{encoding}' is not supported; send the body uncompressed.",
    'de-DE': "Content-Encoding '{encoding}' wird nicht unterstützt; senden Sie den Body unkomprimiert.",
    'zh-CN': "不支持 Content-Encoding '{encoding}'；请发送未压缩的请求体。",
  },
  IDEMPOTENCY_KEY_REUSED: {
    'en-GB': 'This Idempotency-Key was used for another request (method, address or body); use a new key.',
    'de-DE':
      'Dieser Idempotency-Key wurde für eine andere Anfrage (Methode, Adresse oder Body) verwendet; verwenden Sie einen neuen Schlüssel.',
    'zh-CN': '此 Idempotency-Key 已用于另一个请求（方法、地址或请求体）；请使用新的键。',
  },
  TOO_MANY_STREAMS: {
    'en-GB': 'Too many open event streams (at most {limit}); close one first.',
    'de-DE': 'Zu viele offene Event-Streams (höchstens {limit}); schließen Sie zuerst einen.',
    'zh-CN': '打开的事件流过多（最多 {limit} 个）；请先关闭一个。',
  },
  INTERNAL_ERROR: {
    'en-GB': 'An internal error occurred (request id {requestId}).',
    'de-DE': 'Ein interner Fehler ist aufgetreten (Request-ID {requestId}).',
    'zh-CN': '发生内部错误（请求 ID {requestId}）。',
  },
  DATABASE_UNAVAILABLE: {
    'en-GB': 'The database is not reachable; try again shortly (request id {requestId}).',
    'de-DE': 'Die Datenbank ist nicht erreichbar; versuchen Sie es gleich erneut (Request-ID {requestId}).',
    'zh-CN': '数据库无法访问，请稍后重试（请求 ID {requestId}）。',
  },
  SERVER_BUSY: {
    'en-GB': 'Too many large answers are being sent; try again in {retryAfter} s.',
    'de-DE': 'Zu viele große Antworten werden gerade gesendet; versuchen Sie es in {retryAfter} s erneut.',
    'zh-CN': '正在发送的大型响应过多；请在 {retryAfter} 秒后重试。',
  },
  DATABASE_TIMEOUT: {
    'en-GB': 'The database did not answer in time; try again (request id {requestId}).',
    'de-DE':
      'Die Datenbank hat nicht rechtzeitig geantwortet; versuchen Sie es erneut (Request-ID {requestId}).',
    'zh-CN': '数据库未及时响应，请重试（请求 ID {requestId}）。',
  },
};

/** The message of an error code in the locale, with its parameters filled in. */
export function message(key: string, locale: Locale, params: MessageParams): string {
  const text = MESSAGES[key] ?? MESSAGES[key.split('.')[0] ?? ''];
  if (!text) return key;
  return localize(text, locale).replace(/\{(\w+)\}/g, (match, name: string) =>
    params[name] === undefined ? match : String(params[name]),
  );
}

/** Every message key, for the completeness test. */
export const MESSAGE_KEYS = Object.keys(MESSAGES);
