import { endpoint } from "@/lib/api/endpoint";
import { CreateUserBody, User } from "@/lib/users/schemas";

const tag = "Users";

export const userEndpoints = {
  createUser: endpoint({
    method: "POST",
    path: "/users",
    tag,
    summary: "Create a user (an org owner/admin also adds them to the organization as a member)",
    body: CreateUserBody,
    status: 201,
    response: User,
  }),
};
