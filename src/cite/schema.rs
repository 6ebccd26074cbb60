//! The `emit_answer` tool schema in the shape each model API takes it.
//!
//! One schema (`schemas/emit_answer.json`), four wrappers:
//! - `anthropic`: the Messages API tool, `{name, description, input_schema}`, as written;
//! - `openai`: a Chat Completions function tool, `{type: "function", function: {name,
//!   description, strict: true, parameters}}`;
//! - `openai-responses`: a Responses API function tool, `{type: "function", name, description,
//!   strict: true, parameters}`;
//! - `ai-sdk`: the Vercel AI SDK's tool fields, `{description, inputSchema}`, `inputSchema`
//!   being the JSON Schema object its `jsonSchema()` helper takes (see [`SchemaFormat::AiSdk`]).
//!
//! Invariant: the OpenAI and AI SDK shapes are valid under strict structured outputs — every
//! object has `additionalProperties: false` and lists every property in `required`, and no
//! keyword outside the subset strict mode accepts is left (`minLength` is dropped: empty and
//! blank quotes are refused when the answer is parsed, with the JSON path, whichever API
//! produced it).

use super::answer::EMIT_ANSWER_SCHEMA;
use serde_json::{json, Map, Value};

/// Which API's tool shape to print.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SchemaFormat {
    /// Anthropic Messages API tool (`input_schema`).
    Anthropic,
    /// OpenAI Chat Completions function tool (`function.parameters`, strict).
    OpenAi,
    /// OpenAI Responses API function tool (`parameters` at the top, strict).
    OpenAiResponses,
    /// Vercel AI SDK tool fields: `{"description", "inputSchema"}`.
    ///
    /// `inputSchema` is the JSON Schema object itself, what the AI SDK's `jsonSchema()` helper
    /// takes (`JSONSchema7`): in AI SDK 5, `tool({ description, inputSchema:
    /// jsonSchema(inputSchema) })` (<https://ai-sdk.dev/v5/docs/reference/ai-sdk-core/json-schema>,
    /// <https://ai-sdk.dev/v5/docs/ai-sdk-core/tools-and-tool-calling>); AI SDK 4 names the same
    /// field `parameters` (<https://ai-sdk.dev/v4/docs/ai-sdk-core/tools-and-tool-calling>). The
    /// tool's name is not printed: it is the key of the tool in `generateText`'s `tools`, and
    /// must be `emit_answer` for `cite` to find the call. A plain object cannot be passed as
    /// `inputSchema`: the AI SDK takes a Zod schema or `jsonSchema(...)`'s wrapper. The schema
    /// is the strict one of the OpenAI shapes, since the AI SDK may send it to any provider,
    /// OpenAI's strict mode included.
    AiSdk,
}

/// The names [`SchemaFormat`] parses from, in the order the help lists them.
pub const SCHEMA_FORMATS: [&str; 4] = ["anthropic", "openai", "openai-responses", "ai-sdk"];

/// A schema format name that is not one of [`SCHEMA_FORMATS`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown schema format {given:?}; expected one of: anthropic, openai, openai-responses, ai-sdk"
)]
pub struct UnknownSchemaFormat {
    /// What was given.
    pub given: String,
}

impl std::str::FromStr for SchemaFormat {
    type Err = UnknownSchemaFormat;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "anthropic" => Ok(SchemaFormat::Anthropic),
            "openai" => Ok(SchemaFormat::OpenAi),
            "openai-responses" => Ok(SchemaFormat::OpenAiResponses),
            "ai-sdk" => Ok(SchemaFormat::AiSdk),
            other => Err(UnknownSchemaFormat {
                given: other.to_string(),
            }),
        }
    }
}

impl SchemaFormat {
    /// The name it parses from.
    pub fn as_str(self) -> &'static str {
        match self {
            SchemaFormat::Anthropic => "anthropic",
            SchemaFormat::OpenAi => "openai",
            SchemaFormat::OpenAiResponses => "openai-responses",
            SchemaFormat::AiSdk => "ai-sdk",
        }
    }
}

/// Keywords the strict subset of OpenAI's structured outputs does not take. Dropped from the
/// OpenAI and AI SDK shapes (none but `minLength` is in the schema today; the list guards later edits).
pub const STRICT_UNSUPPORTED: [&str; 17] = [
    "minLength",
    "maxLength",
    "pattern",
    "format",
    "minimum",
    "maximum",
    "multipleOf",
    "patternProperties",
    "unevaluatedProperties",
    "propertyNames",
    "minProperties",
    "maxProperties",
    "unevaluatedItems",
    "contains",
    "minContains",
    "maxContains",
    "uniqueItems",
];

/// The `emit_answer` tool definition in the shape `format` names.
///
/// ```
/// use citestore::cite::schema::{tool_schema, SchemaFormat};
///
/// let tool = tool_schema("openai".parse::<SchemaFormat>().unwrap());
/// assert_eq!(tool["function"]["name"], "emit_answer");
/// assert_eq!(tool["function"]["strict"], true);
/// assert!("gemini".parse::<SchemaFormat>().unwrap_err().to_string().contains("openai-responses"));
/// ```
pub fn tool_schema(format: SchemaFormat) -> Value {
    let tool: Value = serde_json::from_str(EMIT_ANSWER_SCHEMA).expect("the bundled schema is JSON");
    let name = tool["name"].clone();
    let description = tool["description"].clone();
    match format {
        SchemaFormat::Anthropic => tool,
        SchemaFormat::OpenAi => json!({
            "type": "function",
            "function": {
                "name": name,
                "description": description,
                "strict": true,
                "parameters": strict(tool["input_schema"].clone()),
            }
        }),
        SchemaFormat::OpenAiResponses => json!({
            "type": "function",
            "name": name,
            "description": description,
            "strict": true,
            "parameters": strict(tool["input_schema"].clone()),
        }),
        SchemaFormat::AiSdk => json!({
            "description": description,
            "inputSchema": strict(tool["input_schema"].clone()),
        }),
    }
}

/// `schema` made strict-mode valid: unsupported keywords dropped, every object closed and
/// every property required.
fn strict(schema: Value) -> Value {
    match schema {
        Value::Object(map) => {
            let mut out = Map::new();
            for (key, value) in map {
                if STRICT_UNSUPPORTED.contains(&key.as_str()) {
                    continue;
                }
                let value = if key == "properties" {
                    match value {
                        Value::Object(props) => {
                            Value::Object(props.into_iter().map(|(k, v)| (k, strict(v))).collect())
                        }
                        other => other,
                    }
                } else {
                    strict(value)
                };
                out.insert(key, value);
            }
            if out.get("type").and_then(Value::as_str) == Some("object") {
                let names: Vec<Value> = out
                    .get("properties")
                    .and_then(Value::as_object)
                    .map(|p| p.keys().cloned().map(Value::String).collect())
                    .unwrap_or_default();
                out.insert("required".into(), Value::Array(names));
                out.insert("additionalProperties".into(), Value::Bool(false));
            }
            Value::Object(out)
        }
        Value::Array(items) => Value::Array(items.into_iter().map(strict).collect()),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every object schema reachable from `schema`, with its path.
    fn objects<'a>(schema: &'a Value, path: String, out: &mut Vec<(String, &'a Value)>) {
        if let Value::Object(map) = schema {
            if map.get("type").and_then(Value::as_str) == Some("object") {
                out.push((path.clone(), schema));
            }
            for (key, value) in map {
                objects(value, format!("{path}.{key}"), out);
            }
        }
    }

    #[test]
    fn openai_and_ai_sdk_shapes_are_strict_valid() {
        for format in [
            SchemaFormat::OpenAi,
            SchemaFormat::OpenAiResponses,
            SchemaFormat::AiSdk,
        ] {
            let tool = tool_schema(format);
            let params = match format {
                SchemaFormat::OpenAi => &tool["function"]["parameters"],
                SchemaFormat::AiSdk => &tool["inputSchema"],
                _ => &tool["parameters"],
            };
            let mut found = Vec::new();
            objects(params, "$".into(), &mut found);
            assert_eq!(found.len(), 3, "answer, claim, evidence");
            for (path, object) in found {
                assert_eq!(object["additionalProperties"], false, "{path}");
                let mut props: Vec<&String> =
                    object["properties"].as_object().unwrap().keys().collect();
                let mut required: Vec<&str> = object["required"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|v| v.as_str().unwrap())
                    .collect();
                props.sort();
                required.sort();
                assert_eq!(props, required, "{path}");
            }
            let text = params.to_string();
            for keyword in STRICT_UNSUPPORTED {
                assert!(!text.contains(&format!("\"{keyword}\"")), "{keyword}");
            }
        }
    }

    #[test]
    fn names_parse_and_round_trip() {
        for name in SCHEMA_FORMATS {
            assert_eq!(name.parse::<SchemaFormat>().unwrap().as_str(), name);
        }
        let err = "OpenAI".parse::<SchemaFormat>().unwrap_err().to_string();
        assert!(
            err.contains("anthropic, openai, openai-responses, ai-sdk"),
            "{err}"
        );
    }

    /// The AI SDK shape is the two fields `tool()` takes besides `execute`, the same
    /// description and the same schema body as the other shapes.
    #[test]
    fn ai_sdk_shape_is_description_and_input_schema() {
        let tool = tool_schema(SchemaFormat::AiSdk);
        let keys: Vec<&String> = tool.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["description", "inputSchema"]);
        let anthropic = tool_schema(SchemaFormat::Anthropic);
        assert_eq!(tool["description"], anthropic["description"]);
        let openai = tool_schema(SchemaFormat::OpenAiResponses);
        assert_eq!(tool["inputSchema"], openai["parameters"]);
        assert_eq!(tool["inputSchema"]["type"], "object");
    }
}
