export { TestClient, testClient, type TestResponse } from './TestClient.js'
