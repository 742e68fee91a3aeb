export { TestClient, testClient, type TestRequestOptions, type TestResponse } from './TestClient.js'
