import { z } from "zod";
import { endpoint } from "@/lib/api/endpoint";
import { Id } from "@/lib/schemas/common";
import { ConnectorHealth, ConnectorProbe } from "@/lib/connector-health/schemas";

const tag = "Connectors";
const params = z.object({ connectorId: Id });

export const connectorHealthEndpoints = {
  getConnectorHealth: endpoint({
    operationId: "getConnectorHealth",
    method: "GET",
    path: "/connectors/{connectorId}/health",
    tag,
    summary: "A connector's health: last success, last failure with its message, latency, last test",
    params,
    response: ConnectorHealth,
  }),
  testConnector: endpoint({
    operationId: "testConnector",
    method: "POST",
    path: "/connectors/{connectorId}/test",
    tag,
    summary: "Test connection (http: the probe request; mcp: connect and list tools); the outcome is recorded and the health answered",
    params,
    response: ConnectorHealth,
  }),
  setConnectorProbe: endpoint({
    operationId: "setConnectorProbe",
    method: "PUT",
    path: "/connectors/{connectorId}/probe",
    tag,
    summary: "Set the request Test connection sends to an http connector (method and path below its baseUrl)",
    params,
    body: ConnectorProbe,
    response: ConnectorHealth,
  }),
};
