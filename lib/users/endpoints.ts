import { endpoint } from "@/lib/api/endpoint";
import { CreateUserBody, User } from "@/lib/users/schemas";
import { Invitation } from "@/lib/invitations/schemas";

const tag = "Users";

export const userEndpoints = {
  createUser: endpoint({
    operationId: "createUser",
    method: "POST",
    path: "/users",
    tag,
    summary: "Create a user (an org owner/admin also adds them to the organization as a member)",
    body: CreateUserBody,
    status: 201,
    response: User,
    otherResponses: [{ status: 202, description: "The email already has an account: an owner/admin gets an invitation it must accept, not a membership", response: Invitation }],
  }),
};
