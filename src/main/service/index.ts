// The service client's public surface: what the rest of main may import from service/.
export { ServiceClient, type ServiceClientOptions, type ServiceEndpoints } from './service-client';
export { ServiceError, SERVICE_ERROR_KINDS, isServiceError, toDeskError, type ServiceErrorKind, type ServiceErrorInit } from './errors';
export { HttpTransport, type HttpRequest, type HttpResponse, type TransportOptions } from './http-transport';
export { TokenSet, requestClientCredentialsToken, exchangeAuthorizationCode } from './oauth';
export { TokenManager, type CredentialSource } from './token-manager';
export { ClientTokenPool } from './client-tokens';
export { signInWithBrowser, type SignInOptions, type AuthorizationCodeSession } from './browser-sign-in';
export type { CampaignPage, ListAllProgress, ListAllOptions } from './campaigns-api';
export { readAgainOnFailure, readPageAt, smallerPageAfterRefusal, wasCut } from './campaigns-api';
export type { ReadRetry } from './campaigns-api';
export type { TaskType } from './push-api';
export type { CallOptions } from './request-executor';
