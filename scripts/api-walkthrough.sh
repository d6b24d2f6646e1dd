#!/usr/bin/env bash
# Drives the admin JSON API end to end with nothing but curl and the instance credential:
# two organizations, users, workspaces, roles, connectors with tools, stored resources,
# servers, skills and API keys, each created and read back. Fails if a secret ever comes back.
set -euo pipefail

usage() {
  cat <<'TXT'
Usage: INSTANCE_API_KEY=… scripts/api-walkthrough.sh [BASE_URL]

Creates two organizations with everything in them through /api/v1 using only curl and the
instance credential, reads each object back, and checks that connector secrets never appear
in any answer. BASE_URL defaults to http://localhost:3000. Exits non-zero on the first
unexpected status.
TXT
}

case "${1:-}" in -h|--help) usage; exit 0 ;; esac
: "${INSTANCE_API_KEY:?set INSTANCE_API_KEY to the instance credential}"
BASE="${1:-http://localhost:3000}/api/v1"
SECRET="walkthrough-secret-$RANDOM$RANDOM"
RUN="$RANDOM$RANDOM"
ALL=$(mktemp)
trap 'rm -f "$ALL"' EXIT

# call METHOD PATH EXPECTED_STATUS [JSON] — prints the answer body; exits on another status.
call() {
  local method=$1 path=$2 expected=$3 body=${4:-} out status
  out=$(mktemp)
  if [ -n "$body" ]; then
    status=$(curl -sS -o "$out" -w '%{http_code}' -X "$method" "$BASE$path" \
      -H "Authorization: Bearer $INSTANCE_API_KEY" -H 'content-type: application/json' --data "$body")
  else
    status=$(curl -sS -o "$out" -w '%{http_code}' -X "$method" "$BASE$path" -H "Authorization: Bearer $INSTANCE_API_KEY")
  fi
  if [ "$status" != "$expected" ]; then
    echo "FAIL $method $path: expected $expected, got $status: $(cat "$out")" >&2
    exit 1
  fi
  echo "ok   $method $path → $status" >&2
  cat "$out" >>"$ALL"
  cat "$out"
  rm -f "$out"
}

# field NAME — the first string value of "NAME" in the JSON on stdin.
field() { grep -o "\"$1\":\"[^\"]*\"" | head -n 1 | cut -d'"' -f4; }

make_org() {
  local n=$1 org user ws conn role server
  org=$(call POST /orgs 201 "{\"name\":\"Walkthrough $n\",\"slug\":\"walk-$RUN-$n\"}" | field id)
  call GET "/orgs/$org" 200 >/dev/null
  user=$(call POST /users 201 "{\"email\":\"walk-$RUN-$n@example.test\",\"name\":\"Walker $n\",\"orgId\":\"$org\"}" | field id)
  call POST "/orgs/$org/members" 409 "{\"userId\":\"$user\",\"role\":\"member\"}" >/dev/null
  ws=$(call POST "/orgs/$org/workspaces" 201 '{"name":"Main","slug":"main","knowledgeGraphEnabled":true}' | field id)
  call GET "/workspaces/$ws" 200 >/dev/null
  conn=$(call POST "/orgs/$org/connectors" 201 "{\"name\":\"CRM\",\"type\":\"http\",\"instructions\":\"Look customers up by id.\",
    \"config\":{\"baseUrl\":\"https://api.example.com\",\"headers\":{\"Authorization\":\"Bearer $SECRET\"}},
    \"tools\":[{\"name\":\"get_customer\",\"description\":\"Fetch a customer\",
      \"inputSchema\":{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"string\"}},\"required\":[\"id\"]},
      \"request\":{\"method\":\"GET\",\"path\":\"/customers/{id}\"}}]}" | field id)
  call GET "/connectors/$conn" 200 >/dev/null
  call POST "/connectors/$conn/resources" 201 '{"uri":"crm://schema","name":"CRM schema","mimeType":"text/markdown","fetchConfig":{"text":"# Customers"}}' >/dev/null
  call GET "/connectors/$conn/resources" 200 >/dev/null
  role=$(call POST "/orgs/$org/roles" 201 "{\"name\":\"Support\",\"tools\":[{\"connectorId\":\"$conn\",\"tool\":\"get_customer\"}]}" | field id)
  call GET "/roles/$role" 200 >/dev/null
  call POST "/workspaces/$ws/members" 201 "{\"userId\":\"$user\",\"mcpRoleId\":\"$role\"}" >/dev/null
  server=$(call POST "/workspaces/$ws/servers" 201 "{\"name\":\"Support\",\"instructions\":\"Be brief.\",\"connectorIds\":[\"$conn\"]}" | field id)
  call GET "/servers/$server" 200 >/dev/null
  call POST "/workspaces/$ws/skills" 201 '{"name":"Tone","content":"Answer politely."}' >/dev/null
  call GET "/workspaces/$ws/skills" 200 >/dev/null
  call POST "/workspaces/$ws/api-keys" 201 "{\"name\":\"walkthrough\",\"userId\":\"$user\",\"serverId\":\"$server\"}" >/dev/null
  call GET "/workspaces/$ws/api-keys" 200 >/dev/null
  call GET "/orgs/$org/audit" 200 >/dev/null
}

make_org one
make_org two
call GET /orgs 200 >/dev/null

if grep -q "$SECRET" "$ALL"; then
  echo "FAIL a connector secret came back in an answer" >&2
  exit 1
fi
echo "walkthrough complete: two organizations created and read back; no secret returned" >&2
